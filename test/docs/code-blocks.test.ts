/**
 * The code in the README and the guides compiles: every ```ts / ```typescript / ```js block is
 * written as a module under build/docs-blocks/ and type-checked in one tsc run, with `mcpkit/…`
 * mapped to the sources (no build needed). Fragments that use a `server`, a `client`… they do not
 * declare get them from fragments.ts; a block marked `<!-- not-checked: why -->` is left out.
 * run-blocks.test.ts runs them.
 */
import { execFile } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { type CodeBlock, documentationBlocks, extractBlocks, sourceEntryPoints } from "./code-blocks.js";
import { FRAGMENT_GLOBALS } from "./fragments.js";

const run = promisify(execFile);
const root = fileURLToPath(new URL("../..", import.meta.url));
const out = join(root, "build/docs-blocks");
const tsc = join(root, "node_modules/typescript/bin/tsc");
const SLOW = 120_000;

/** Where a block is written: one folder per Markdown file, the block's `file:` name or its line. */
function blockPath(block: CodeBlock): string {
  const folder = block.file.replace(/\.md$/, "").replace(/[^\w-]/g, "_");
  return join(out, folder, block.name ?? `line-${block.line}.${block.lang}`);
}

describe("extractBlocks", () => {
  it("takes ts, typescript and js blocks with their markers, and skips the others", () => {
    const blocks = extractBlocks(
      [
        "```sh",
        "npm test",
        "```",
        "<!-- file: a.ts -->",
        "",
        "```ts",
        "const a = 1;",
        "```",
        "<!-- not-checked: needs a browser -->",
        "```js",
        "document.title;",
        "```",
        "<!-- not-checked: stale -->",
        "Text between a marker and its block cancels the marker.",
        "```typescript",
        "let b: number;",
        "```",
        "Inline code at a line's start is no fence: ```` ```ts ```` stays text.",
        "````ts",
        "const c = '```';",
        "````",
        "<!-- file: d.ts -->",
        "<!-- not-runnable: needs the network -->",
        "```ts",
        "await fetch('https://example.com');",
        "```",
      ].join("\n"),
      "x.md",
    );
    expect(blocks).toEqual([
      { file: "x.md", line: 6, lang: "ts", code: "const a = 1;", name: "a.ts" },
      { file: "x.md", line: 10, lang: "js", code: "document.title;", notChecked: "needs a browser" },
      { file: "x.md", line: 15, lang: "ts", code: "let b: number;" },
      { file: "x.md", line: 19, lang: "ts", code: "const c = '```';" },
      {
        file: "x.md",
        line: 24,
        lang: "ts",
        code: "await fetch('https://example.com');",
        name: "d.ts",
        notRunnable: "needs the network",
      },
    ]);
  });

  it("refuses a not-checked or not-runnable marker without a reason, and a block never closed", () => {
    expect(() => extractBlocks("<!-- not-checked: -->\n```ts\nx\n```", "x.md")).toThrow(/needs a value/);
    expect(() => extractBlocks("<!-- not-runnable: -->\n```ts\nx\n```", "x.md")).toThrow(/needs a value/);
    expect(() => extractBlocks("<!-- not-runnable: why -->\n```sh\nx\n```", "x.md")).toThrow(
      /x.md:2: a marker before a block that is not checked anyway/,
    );
    expect(() => extractBlocks("```ts\nx", "x.md")).toThrow(/x.md:1: a code block that is never closed/);
  });
});

describe("the code blocks of README.md and docs/", () => {
  const blocks = documentationBlocks(root);
  const checked = blocks.filter((block) => block.notChecked === undefined);

  beforeAll(() => {
    rmSync(out, { recursive: true, force: true });
    const names = new Set<string>();
    for (const block of checked) {
      const path = blockPath(block);
      if (names.has(path)) throw new Error(`${block.file}:${block.line}: a second block named ${block.name}`);
      names.add(path);
      mkdirSync(join(path, ".."), { recursive: true });
      // `export {}` makes every block a module, so its own declarations shadow FRAGMENT_GLOBALS'.
      writeFileSync(path, `${block.code}\nexport {};\n`);
    }
    const paths = Object.fromEntries(
      Object.entries(sourceEntryPoints(root)).map(([specifier, source]) => [
        specifier,
        [relative(out, source)],
      ]),
    );
    writeFileSync(join(out, "fragments.d.ts"), FRAGMENT_GLOBALS);
    writeFileSync(
      join(out, "tsconfig.json"),
      JSON.stringify({
        extends: relative(out, join(root, "tsconfig.json")),
        // A reader's project is `strict`; the repository's extra index check is not what the docs promise.
        compilerOptions: {
          noEmit: true,
          allowJs: true,
          checkJs: true,
          noUncheckedIndexedAccess: false,
          paths,
        },
        include: ["**/*.ts", "**/*.js", "fragments.d.ts"],
      }),
    );
  });

  it("finds the README's blocks and the guides'", () => {
    expect(blocks.filter((block) => block.file === "README.md").map((block) => block.name)).toEqual([
      "server.ts",
      "client.ts",
    ]);
    expect(new Set(blocks.map((block) => block.file)).size).toBeGreaterThan(5);
  });

  it(
    "type-check, each error shown at its line in the Markdown",
    async () => {
      const result = await run(
        process.execPath,
        [tsc, "-p", join(out, "tsconfig.json"), "--pretty", "false"],
        {
          cwd: root,
        },
      ).then(
        () => "",
        (error: { stdout?: string; message: string }) => error.stdout || error.message,
      );
      // build/docs-blocks/docs_servers/line-12.ts(3,5): error … → docs/servers.md:15:5: error …
      const located = result.replace(/^(\S+)\((\d+),(\d+)\): /gm, (whole, file: string, row, column) => {
        const block = checked.find((b) => relative(root, blockPath(b)) === file);
        return block ? `${block.file}:${block.line + Number(row)}:${column}: ` : whole;
      });
      expect(located).toBe("");
    },
    SLOW,
  );
});
