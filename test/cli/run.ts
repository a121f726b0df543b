/** Runs the built CLI (`node dist/cli/main.js`) as a user would, and collects what it prints. */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const CLI = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));
/** The official reference server, run from node_modules (nothing is fetched). */
export const REFERENCE = fileURLToPath(
  new URL("../../node_modules/@modelcontextprotocol/server-everything/dist/index.js", import.meta.url),
);
/** `-- node …/server-everything`: the reference server as a command after `--`. */
export const REFERENCE_SERVER = ["--", process.execPath, REFERENCE];
/** `-- node dist/cli/main.js serve everything`: our own everything server through the CLI. */
export const OUR_SERVER = ["--", process.execPath, CLI, "serve", "everything"];

export interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  /** stdout as bytes, for binary output. */
  bytes: Buffer;
  stderr: string;
}

/** What the terminal would otherwise decide for the child: colour and width. */
const NEUTRAL_ENV = { FORCE_COLOR: undefined, NO_COLOR: undefined, COLUMNS: undefined };

/**
 * Runs `mcpkit …args`; stdin is closed at once unless `input` is given (so it is never a terminal),
 * without the caller's colour or width settings unless `env` gives them.
 */
export function mcpkit(
  args: string[],
  options: { input?: string; env?: NodeJS.ProcessEnv; cwd?: string } = {},
) {
  return new Promise<Run>((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: options.cwd ?? ROOT,
      env: { ...process.env, ...NEUTRAL_ENV, ...options.env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    const chunks: Buffer[] = [];
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code, signal) => {
      const bytes = Buffer.concat(chunks);
      resolve({ code, signal, stdout: bytes.toString("utf8"), bytes, stderr });
    });
    child.stdin.end(options.input ?? "");
  });
}

/** Generous limits: the machine may be loaded, and each run starts a server. */
export const SLOW = { timeout: 120_000 };

/** Parses stdout as JSON, failing with what was printed if it is not. */
export function json<T = any>(run: Run): T {
  try {
    return JSON.parse(run.stdout) as T;
  } catch {
    throw new Error(`stdout is not JSON:\n${run.stdout}\nstderr:\n${run.stderr}`);
  }
}
