import { deepFreeze } from "./fixed-json.js";

const COMMA = 44;
const OPEN_BRACE = 123;
/**
 * Longer messages are parsed as they are: next to the rest of them a `_meta` costs nothing, and
 * cutting it off would copy the whole text.
 */
const LONGEST = 64 * 1024;

/**
 * `JSON.parse` for the messages of one peer, which remembers the `params._meta` or `result._meta`
 * that ended the last message it learned from. In the stateless revision a peer repeats the same
 * identity in every message, and building those objects is most of the cost of parsing a small
 * message: a message that ends with the same `_meta` text is parsed without it, and gets the
 * remembered object, deep-frozen and shared, as its `_meta`.
 *
 * The result is what `JSON.parse` gives, with one exception: a message whose top-level members
 * repeat a name, which RFC 8259 leaves to each parser.
 */
export class MessageParser {
  /** `"_meta":<json>}}`: how a message ends that carries the remembered `_meta`. */
  private tail = "";
  private meta: object | undefined;
  private hits = 0;
  /** Messages to let pass before learning again, after learning something that did not repeat. */
  private skip = 0;
  private backoff = 1;

  /** Parses one message's text; throws `SyntaxError` as `JSON.parse` does. */
  parse(text: string): unknown {
    const meta = this.meta;
    const length = text.length;
    if (length > LONGEST) return JSON.parse(text);
    // Not endsWith, which compares character by character: string equality compares memory.
    if (meta !== undefined && length > this.tail.length && text.slice(-this.tail.length) === this.tail) {
      const value = this.repeated(text, meta);
      if (value !== undefined) return value;
    }
    const value: unknown = JSON.parse(text);
    if (this.skip > 0) this.skip--;
    else this.learn(text, value);
    return value;
  }

  private repeated(text: string, meta: object): unknown {
    const cut = text.length - this.tail.length;
    const before = text.charCodeAt(cut - 1);
    // `,"_meta":` must follow a member (`{,` is not JSON); `{"_meta":` opens the body.
    let rest: string;
    if (before === COMMA && text.charCodeAt(cut - 2) !== OPEN_BRACE && text.charCodeAt(cut - 2) > 32) {
      rest = text.slice(0, cut - 1);
    } else if (before === OPEN_BRACE) {
      rest = text.slice(0, cut);
    } else {
      return undefined;
    }
    let value: unknown;
    try {
      // If what is left parses, the cut was outside any string: the whole text is that value with
      // one more member, _meta, in the object the last but one brace closes.
      value = JSON.parse(`${rest}}}`);
    } catch {
      return undefined;
    }
    const body = bodyOf(value);
    if (body === undefined) return undefined;
    body._meta = meta;
    this.hits++;
    return value;
  }

  private learn(text: string, value: unknown): void {
    const meta = bodyOf(value)?._meta;
    if (typeof meta !== "object" || meta === null || Array.isArray(meta)) return;
    let json: string;
    try {
      json = JSON.stringify(meta);
    } catch {
      // Nested deeper than the serializer can walk: the message goes through as parsed, uncached.
      this.skip = this.backoff;
      this.backoff = Math.min(this.backoff * 2, 1024);
      return;
    }
    const tail = `"_meta":${json}}}`;
    const useless = !text.endsWith(tail) || (this.meta !== undefined && this.hits === 0);
    if (useless) {
      // Not in the serializer's form, or the last one learned never came again: learn less often.
      this.skip = this.backoff;
      this.backoff = Math.min(this.backoff * 2, 1024);
      if (!text.endsWith(tail)) return;
    } else {
      this.backoff = 1;
    }
    this.tail = tail;
    this.meta = deepFreeze(meta);
    this.hits = 0;
  }
}

/**
 * The `params` or `result` of a message that is its last member, where a remembered `_meta`
 * belongs. A first member `jsonrpc` rules out integer-like names, which objects list first.
 */
function bodyOf(value: unknown): Record<string, unknown> | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  let first: string | undefined;
  let last: string | undefined;
  for (const key in value) {
    first ??= key;
    last = key;
  }
  if (first !== "jsonrpc" || (last !== "params" && last !== "result")) return undefined;
  const body = (value as Record<string, unknown>)[last];
  return typeof body === "object" && body !== null && !Array.isArray(body)
    ? (body as Record<string, unknown>)
    : undefined;
}
