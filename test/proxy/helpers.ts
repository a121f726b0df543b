/** Starting `mcpkit proxy` as a process, reading its URL, and checking it leaves nothing behind. */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { groupMembers } from "../helpers/processes.js";
import { until } from "../helpers/until.js";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const CLI = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));
export const SEARCH_FIXTURE = fileURLToPath(new URL("../fixtures/multi-search-server.js", import.meta.url));

/** A running `mcpkit proxy`. */
export interface ProxyProcess {
  child: ChildProcessWithoutNullStreams;
  url: string;
  /** Everything it wrote on stderr so far. */
  stderr(): string;
  /** The processes it started (its children), each the leader of its own process group. */
  children(): number[];
  /** SIGTERM; resolves with the exit code once it exited. */
  stop(): Promise<number | null>;
}

/** Direct children of `pid`, from /proc. */
export function childrenOf(pid: number): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue;
    }
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(fields[1]) === pid && fields[0] !== "Z") found.push(Number(entry));
  }
  return found;
}

/** Waits until every process of the groups led by `leaders` is gone; throws if they stay. */
export function allGone(leaders: number[]): Promise<boolean> {
  return until(() => leaders.every((leader) => groupMembers(leader).length === 0), {
    what: `the process groups ${leaders.join(", ")} to be gone`,
  });
}

/** Spawns `mcpkit proxy …args` serving HTTP and waits for "mcpkit: proxy listening on <url>". */
export function startProxy(args: string[]): Promise<ProxyProcess> {
  const child = spawn(process.execPath, [CLI, "proxy", ...args], { cwd: ROOT });
  let stderr = "";
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
      const found = /mcpkit: proxy listening on (http:\/\/\S+\/mcp)\n/.exec(stderr);
      if (found) {
        resolve({
          child,
          url: found[1]!,
          stderr: () => stderr,
          children: () => childrenOf(child.pid!),
          stop: () => {
            if (child.exitCode === null) child.kill("SIGTERM");
            return exited;
          },
        });
      }
    });
    void exited.then((code) => reject(new Error(`proxy exited with ${code}: ${stderr}`)));
  });
}
