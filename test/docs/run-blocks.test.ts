/**
 * Every code block of the README and the guides runs, offline: each is a program (see
 * run-block.ts) that runs as its runtime says (runtimes.ts): a server block is started and a real
 * client checks what it serves, a client block runs against a server started for it (the bundled
 * "everything" server, another block's server, a scripted model). A block marked
 * `<!-- not-runnable: why -->` is only type-checked (code-blocks.test.ts). A failure names the
 * Markdown file and line.
 */
import { rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { McpClient } from "../../src/client/index.js";
import { type CodeBlock, documentationBlocks } from "./code-blocks.js";
import { compile, type RunOptions, root, runDir, runProgram, startHttpProgram } from "./run-block.js";
import { RUNTIMES, type RunContext } from "./runtimes.js";

/** A bound on each block's run and check, never an assertion. */
const SLOW = 120_000;
const DOCS = fileURLToPath(new URL("./", import.meta.url));

const runnable = documentationBlocks(root).filter(
  (block) => block.notChecked === undefined && block.notRunnable === undefined,
);
const byName = new Map(runnable.map((block) => [block.name, block]));
const where = (block: CodeBlock) => `${block.file}:${block.line}`;
const compiled = new Map<string, Promise<string>>();

beforeAll(() => {
  rmSync(runDir, { recursive: true, force: true });
  for (const block of runnable) {
    const runtime = block.name === undefined ? undefined : RUNTIMES[block.name];
    if (!runtime) continue;
    const setup = runtime.setup?.replaceAll("@docs/", DOCS) ?? "";
    const program = compile(block, setup, runtime.after);
    program.catch(() => {}); // awaited by the block's test, which fails with the error
    compiled.set(block.name!, program);
  }
});

it("every runnable block has a file name and a runtime, and every runtime a block", () => {
  expect(runnable.filter((block) => block.name === undefined).map(where)).toEqual([]);
  expect(runnable.filter((block) => !RUNTIMES[block.name!]).map(where)).toEqual([]);
  expect(Object.keys(RUNTIMES).filter((name) => !byName.has(name))).toEqual([]);
  expect(byName.size).toBe(runnable.length);
});

describe.concurrent("the blocks run", () => {
  for (const block of runnable) {
    const runtime = block.name === undefined ? undefined : RUNTIMES[block.name];
    if (!runtime) continue;
    it(`${where(block)} (${block.name})`, { timeout: SLOW }, async () => {
      const cleanups: (() => unknown)[] = [];
      try {
        const file = await compiled.get(block.name!)!;
        for (const used of runtime.uses ?? []) await compiled.get(used);
        await runtime.check(context(file, cleanups));
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        throw new Error(`${where(block)} (${block.name}) does not run as the guide says: ${message}`, {
          cause: error,
        });
      } finally {
        for (const cleanup of cleanups.reverse()) await cleanup();
      }
    });
  }
});

function context(file: string, cleanups: (() => unknown)[]): RunContext {
  const bound: RunOptions = { timeout: SLOW - 10_000 };
  return {
    defer: (cleanup) => cleanups.push(cleanup),
    async program(options) {
      const run = await runProgram(file, { ...bound, ...options });
      if (run.code !== 0) throw new Error(`exit code ${run.code}\n${run.stderr}\n${run.stdout}`);
      return run;
    },
    async stdio(options) {
      const client = await McpClient.connect({
        ...options,
        command: process.execPath,
        args: ["--enable-source-maps", file],
        cwd: options?.cwd ?? runDir,
        env: { DOCS_ROOT: root, PATH: process.env.PATH ?? "" },
        elicitation: async () => ({ action: "accept", content: { go: true } }),
      });
      cleanups.push(() => client.close());
      return client;
    },
    async http(env) {
      const served = await startHttpProgram(file, { ...bound, env });
      cleanups.push(() => served.stop());
      return served.url;
    },
  };
}
