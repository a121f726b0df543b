/**
 * A code block of the docs as a program: bundled with esbuild beside the other blocks under
 * build/docs-run/ (inside the repository, so `mcpkit/…` is the built package, as a user imports it,
 * and other packages load from node_modules), then run by node in a process group of its own,
 * bounded, and the whole group killed after. Errors point at the Markdown: the block's lines keep
 * their line numbers, and the source map names the Markdown file.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import type { CodeBlock } from "./code-blocks.js";

export const root = fileURLToPath(new URL("../..", import.meta.url));
export const runDir = join(root, "build/docs-run");
const preamble = fileURLToPath(new URL("./preamble.ts", import.meta.url));

/** Where a block's program is: its `file:` name as .js. */
export function programPath(block: CodeBlock): string {
  return join(runDir, block.name!.replace(/\.ts$/, ".js"));
}

/**
 * Writes the block's program: `setup` in a module of its own (run first), then the block, then
 * `after`, which may use the block's names. `__docs` is the preamble in both.
 */
export async function compile(block: CodeBlock, setup = "", after = ""): Promise<string> {
  mkdirSync(runDir, { recursive: true });
  const path = programPath(block);
  const modulePath = path.replace(/\.js$/, ".block.js");
  const setupPath = path.replace(/\.js$/, ".setup.ts");
  // A module whose top-level await rejects leaves the process running while anything is open
  // (a client, a server it started): the program imports the block and exits when it fails.
  writeFileSync(
    path,
    `import(${JSON.stringify(modulePath)}).catch((error) => {\n  console.error(error);\n  process.exit(1);\n});\n`,
  );
  writeFileSync(setupPath, `import * as __docs from ${JSON.stringify(preamble)};\n${setup}\nexport {};\n`);
  // Line 1 imports; the block's first line is the Markdown's line after the fence.
  const contents = `import ${JSON.stringify(setupPath)}; import * as __docs from ${JSON.stringify(preamble)};${"\n".repeat(block.line)}${block.code}\n${after}\n`;
  await build({
    stdin: { contents, resolveDir: runDir, loader: block.lang, sourcefile: block.file },
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    outfile: modulePath,
    sourcemap: "inline",
    logLevel: "silent",
    plugins: [
      {
        name: "packages-external",
        setup(b) {
          b.onResolve({ filter: /^[^./]/ }, (args) => ({ path: args.path, external: true }));
        },
      },
    ],
  }).catch((error: Error & { errors?: { text: string; location?: { file: string; line: number } }[] }) => {
    const first = error.errors?.[0];
    if (!first?.location) throw error;
    // esbuild names the block's Markdown file from the run folder.
    const { file, line } = first.location;
    throw new Error(`${file.endsWith(block.file) ? block.file : file}:${line}: ${first.text}`);
  });
  return path;
}

export interface RunOptions {
  cwd?: string;
  env?: Record<string, string>;
  /** A bound on the run, never an assertion: past it the group is killed and the run fails. */
  timeout: number;
}

/** The environment of a block's run: no download by npx, the repository for the preamble. */
function environment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DOCS_ROOT: root,
    npm_config_offline: "true",
    npm_config_update_notifier: "false",
    // A block that runs `node` gets this one, whatever PATH says.
    PATH: `${join(process.execPath, "..")}${delimiter}${process.env.PATH ?? ""}`,
    ...extra,
  };
}

function start(file: string, options: RunOptions): ChildProcess {
  return spawn(process.execPath, ["--enable-source-maps", file], {
    cwd: options.cwd ?? runDir,
    env: environment(options.env),
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/** Kills the process group, the block's program and whatever it started and left. */
function killGroup(child: ChildProcess): void {
  try {
    process.kill(-child.pid!, "SIGKILL");
  } catch {
    // The group is gone already.
  }
}

export interface ProgramRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** What the block's `after` reported, merged. */
  report: Record<string, unknown>;
}

/** Runs a block's program to its end. */
export function runProgram(file: string, options: RunOptions): Promise<ProgramRun> {
  const child = start(file, options);
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk));
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk));
  const timer = setTimeout(() => {
    stderr += `\n(killed: still running after ${options.timeout} ms)`;
    killGroup(child);
  }, options.timeout);
  return new Promise((resolve) => {
    child.on("close", (code) => {
      clearTimeout(timer);
      killGroup(child);
      const report: Record<string, unknown> = {};
      for (const [, json] of stdout.matchAll(/^DOCS-REPORT (.*)$/gm))
        Object.assign(report, JSON.parse(json!));
      resolve({ code, stdout, stderr, report });
    });
  });
}

/** Starts a block's program that serves HTTP and gives the first URL it prints on stdout. */
export async function startHttpProgram(
  file: string,
  options: RunOptions,
): Promise<{ url: string; stderr: () => string; stop(): void }> {
  const child = start(file, options);
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk));
  const stop = () => killGroup(child);
  const timer = setTimeout(stop, options.timeout);
  child.on("close", () => clearTimeout(timer));
  for await (const line of createInterface({ input: child.stdout! })) {
    const url = /\bhttps?:\/\/\S+/.exec(line);
    if (url) return { url: url[0], stderr: () => stderr, stop };
  }
  stop();
  throw new Error(`it printed no URL (exit code ${child.exitCode}):\n${stderr}`);
}
