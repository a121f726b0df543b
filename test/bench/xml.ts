/**
 * A strict little XML reader for the bench's SVG charts: elements, attributes, text and the
 * predefined or numeric entities; no DTD, comments, CDATA or processing instructions beyond the
 * declaration (the charts use none). It throws, saying where, on anything not well-formed: a
 * tag left open or closed out of order, an unquoted or repeated attribute, a bare `&` or `<`.
 */
export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: (XmlElement | string)[];
}

const ENTITY = /&(?:(amp|lt|gt|quot|apos)|#(\d+)|#x([0-9a-fA-F]+));/g;
const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
const TAG = /<(\/?)([A-Za-z_][\w:.-]*)((?:\s+[A-Za-z_][\w:.-]*\s*=\s*(?:"[^"<]*"|'[^'<]*'))*)\s*(\/?)>/y;
const ATTR = /([A-Za-z_][\w:.-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

function decode(raw: string, where: number): string {
  if (/&(?!(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/.test(raw))
    throw new Error(`a bare & near offset ${where}`);
  return raw.replace(ENTITY, (_, name: string, dec: string, hex: string) =>
    name ? (NAMED[name] as string) : String.fromCodePoint(Number.parseInt(dec ?? hex, dec ? 10 : 16)),
  );
}

/** The document's root element. */
export function parseXml(xml: string): XmlElement {
  let i = /^<\?xml\s[^?]*\?>/.exec(xml)?.[0].length ?? 0;
  const document: XmlElement = { name: "#document", attrs: {}, children: [] };
  const open = [document];
  while (i < xml.length) {
    const parent = open[open.length - 1] as XmlElement;
    if (xml[i] !== "<") {
      const end = xml.indexOf("<", i) === -1 ? xml.length : xml.indexOf("<", i);
      const text = decode(xml.slice(i, end), i);
      if (parent === document && text.trim()) throw new Error(`text outside the root element at ${i}`);
      parent.children.push(text);
      i = end;
      continue;
    }
    TAG.lastIndex = i;
    const tag = TAG.exec(xml);
    if (!tag) throw new Error(`not a well-formed tag at offset ${i}: ${xml.slice(i, i + 60)}`);
    const [whole, closing, name, attrText, selfClosing] = tag as unknown as string[];
    i += (whole as string).length;
    if (closing) {
      if (attrText || selfClosing) throw new Error(`a malformed end tag </${name}> at ${i}`);
      if (parent.name !== name) throw new Error(`</${name}> closes <${parent.name}> at ${i}`);
      open.pop();
      continue;
    }
    const element: XmlElement = { name: name as string, attrs: {}, children: [] };
    for (const [, key, double, single] of (attrText as string).matchAll(ATTR)) {
      if (key === undefined) continue;
      if (key in element.attrs) throw new Error(`attribute ${key} repeated on <${name}> at ${i}`);
      element.attrs[key] = decode(double ?? single ?? "", i);
    }
    if (parent === document && document.children.some((c) => typeof c !== "string"))
      throw new Error(`a second root element <${name}> at ${i}`);
    parent.children.push(element);
    if (!selfClosing) open.push(element);
  }
  if (open.length !== 1) throw new Error(`<${open[open.length - 1]?.name}> is never closed`);
  const root = document.children.find((c): c is XmlElement => typeof c !== "string");
  if (!root) throw new Error("no root element");
  return root;
}

/** Every element under `element` (itself included), depth first. */
export function* elements(element: XmlElement): Generator<XmlElement> {
  yield element;
  for (const child of element.children) if (typeof child !== "string") yield* elements(child);
}

/** The text inside an element, its descendants' included. */
export const textOf = (element: XmlElement): string =>
  element.children.map((c) => (typeof c === "string" ? c : textOf(c))).join("");
