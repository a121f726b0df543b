/**
 * The TypeScript and JavaScript code blocks of the README and the guides, as the docs test checks
 * them. A block may be preceded (blank lines between allowed) by HTML comments, invisible on
 * GitHub: `<!-- not-checked: why -->` leaves it out of the type check, saying why;
 * `<!-- not-runnable: why -->` type-checks it but does not run it (it needs the network, or
 * something the test cannot provide), saying why;
 * `<!-- file: name.ts -->` names the file it is written to, so another block can run it.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

/** One fenced code block. */
export interface CodeBlock {
  /** The Markdown file, relative to the repository's root (`docs/servers.md`). */
  file: string;
  /** The line of the opening fence, from 1. */
  line: number;
  lang: "ts" | "js";
  code: string;
  /** The name given by `<!-- file: … -->`, if any. */
  name?: string;
  /** The reason given by `<!-- not-checked: … -->`, if any. */
  notChecked?: string;
  /** The reason given by `<!-- not-runnable: … -->`, if any. */
  notRunnable?: string;
}

const LANGS: Record<string, CodeBlock["lang"]> = { ts: "ts", typescript: "ts", js: "js", javascript: "js" };
/** An opening fence, as CommonMark has it: a backtick fence's info string holds no backtick. */
const FENCE = /^( {0,3})(`{3,}(?!.*`)|~{3,})\s*([\w-]*)/;
const MARKER = /^<!--\s*(not-checked|not-runnable|file):\s*(.*?)\s*-->$/;
/** Where each marker's value goes. */
const FIELDS = { file: "name", "not-checked": "notChecked", "not-runnable": "notRunnable" } as const;
type Markers = Partial<Pick<CodeBlock, (typeof FIELDS)[keyof typeof FIELDS]>>;

/** The blocks of one Markdown text, in order; a marker without a value is an error. */
export function extractBlocks(markdown: string, file: string): CodeBlock[] {
  const lines = markdown.split("\n");
  const blocks: CodeBlock[] = [];
  let markers: Markers = {};
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i]!;
    const marker = MARKER.exec(text.trim());
    if (marker) {
      const [, kind, value] = marker;
      if (!value)
        throw new Error(
          `${file}:${i + 1}: <!-- ${kind}: … --> needs a value (for not-checked and not-runnable, why)`,
        );
      markers[FIELDS[kind as keyof typeof FIELDS]] = value;
      continue;
    }
    const fence = FENCE.exec(text);
    if (!fence) {
      if (text.trim() !== "") markers = {};
      continue;
    }
    const [, indent, ticks, info] = fence;
    const body: string[] = [];
    let j = i + 1;
    const close = new RegExp(`^ {0,3}${ticks![0]}{${ticks!.length},}\\s*$`);
    while (j < lines.length && !close.test(lines[j]!)) body.push(lines[j++]!);
    if (j === lines.length) throw new Error(`${file}:${i + 1}: a code block that is never closed`);
    const lang = LANGS[info!.toLowerCase()];
    if (lang)
      blocks.push({
        file,
        line: i + 1,
        lang,
        code: body.map((l) => (l.startsWith(indent!) ? l.slice(indent!.length) : l)).join("\n"),
        ...markers,
      });
    else if (Object.keys(markers).length > 0)
      throw new Error(
        `${file}:${i + 1}: a marker before a block that is not checked anyway (${info || "no language"})`,
      );
    markers = {};
    i = j;
  }
  return blocks;
}

/** README.md and every docs/*.md of the repository at `root`. */
export function documentationFiles(root: string): string[] {
  const docs = readdirSync(join(root, "docs"))
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => join(root, "docs", name));
  return [join(root, "README.md"), ...docs];
}

/** Every block of the README and the guides. */
export function documentationBlocks(root: string): CodeBlock[] {
  return documentationFiles(root).flatMap((path) =>
    extractBlocks(readFileSync(path, "utf8"), relative(root, path)),
  );
}

/**
 * `mcpkit/…` → its source file, from package.json's `exports` (`./dist/x/index.js` is
 * `src/x/index.ts`): the blocks are checked against the sources, no build needed.
 */
export function sourceEntryPoints(root: string): Record<string, string> {
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
    name: string;
    exports: Record<string, string | { default?: string }>;
  };
  const entries: Record<string, string> = {};
  for (const [subpath, target] of Object.entries(pkg.exports)) {
    const path = typeof target === "string" ? target : target.default;
    if (!path?.startsWith("./dist/")) continue;
    const specifier = subpath === "." ? pkg.name : `${pkg.name}/${subpath.slice(2)}`;
    entries[specifier] = join(root, path.replace(/^\.\/dist\//, "src/").replace(/\.js$/, ".ts"));
  }
  return entries;
}
