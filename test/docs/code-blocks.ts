/**
 * The TypeScript and JavaScript code blocks of the README and the guides, as the docs test checks
 * them. A block may be preceded (blank lines between allowed) by HTML comments, invisible on
 * GitHub: `<!-- not-checked: why -->` leaves it out of the type check, saying why;
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
}

const LANGS: Record<string, CodeBlock["lang"]> = { ts: "ts", typescript: "ts", js: "js", javascript: "js" };
/** An opening fence, as CommonMark has it: a backtick fence's info string holds no backtick. */
const FENCE = /^( {0,3})(`{3,}(?!.*`)|~{3,})\s*([\w-]*)/;
const MARKER = /^<!--\s*(not-checked|file):\s*(.*?)\s*-->$/;

/** The blocks of one Markdown text, in order; a `not-checked` marker without a reason is an error. */
export function extractBlocks(markdown: string, file: string): CodeBlock[] {
  const lines = markdown.split("\n");
  const blocks: CodeBlock[] = [];
  let markers: { name?: string; notChecked?: string } = {};
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i]!;
    const marker = MARKER.exec(text.trim());
    if (marker) {
      const [, kind, value] = marker;
      if (!value)
        throw new Error(`${file}:${i + 1}: <!-- ${kind}: … --> needs a value (for not-checked, why)`);
      if (kind === "file") markers.name = value;
      else markers.notChecked = value;
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
    else if (markers.name || markers.notChecked)
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
