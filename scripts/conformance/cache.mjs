// Installs npm packages once into a cache folder outside the repository, so the conformance legs need
// nothing but the npm registry: each entry is installed into a temporary folder and renamed into
// place when complete, so an interrupted or concurrent install never leaves a half-filled entry.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

/** The cache: `$MCP_CONFORMANCE_CACHE`, else `$XDG_CACHE_HOME/mcp-conformance`, else `~/.cache/mcp-conformance`. */
export function cacheDir(env = process.env) {
  if (env.MCP_CONFORMANCE_CACHE) return env.MCP_CONFORMANCE_CACHE;
  return join(env.XDG_CACHE_HOME || join(homedir(), ".cache"), "mcp-conformance");
}

const COMPLETE = ".complete";

/**
 * The cache entry `name`, installed by `npm <npmArgs>` in a folder holding `files` (name → text) when
 * it is not there yet. Returns the entry's folder.
 */
export async function installOnce(cache, name, { files, npmArgs, what }) {
  const entry = join(cache, name);
  if (existsSync(join(entry, COMPLETE))) return entry;
  mkdirSync(cache, { recursive: true });
  const staging = mkdtempSync(join(cache, `.install-${name}-`));
  try {
    for (const [file, text] of Object.entries(files)) writeFileSync(join(staging, file), text);
    console.error(`conformance: installing ${what} into ${entry} (once)`);
    const { code, output } = await npm(npmArgs, staging);
    if (code !== 0) {
      throw new Error(`npm ${npmArgs.join(" ")} failed (exit ${code}) for ${what}:\n${tail(output, 20)}`);
    }
    writeFileSync(join(staging, COMPLETE), `${new Date().toISOString()}\n`);
    if (existsSync(entry)) rmSync(entry, { recursive: true, force: true });
    try {
      renameSync(staging, entry);
    } catch (error) {
      // Another run put the entry in place first; theirs is as good as ours.
      if (!existsSync(join(entry, COMPLETE))) throw error;
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return entry;
}

/** Runs the npm that runs this script (npm sets npm_execpath), else the one on PATH. */
function npm(args, cwd) {
  const quiet = ["--no-audit", "--no-fund", "--loglevel=error"];
  const execPath = process.env.npm_execpath;
  const [command, prefix] = execPath?.endsWith(".js") ? [process.execPath, [execPath]] : ["npm", []];
  return new Promise((done, fail) => {
    const child = spawn(command, [...prefix, ...args, ...quiet], {
      cwd,
      stdio: ["ignore", "pipe", "pipe"],
      shell: process.platform === "win32" && command === "npm",
    });
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (chunk) => {
      output += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk) => {
      output += chunk;
    });
    child.once("error", fail);
    child.once("close", (code) => done({ code, output }));
  });
}

export function tail(text, lines) {
  return text.trimEnd().split("\n").slice(-lines).join("\n");
}

export function readText(file) {
  return readFileSync(file, "utf8");
}
