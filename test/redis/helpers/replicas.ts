/**
 * Replicas as real child processes, each serving the same server on the same Redis: the fixture
 * replica (test/redis/fixtures/replica.js) or any command that prints its URL ("… listening on
 * http://…" or "listening http://…").
 */
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

export const REPLICA = fileURLToPath(new URL("../fixtures/replica.js", import.meta.url));
export const CLI = fileURLToPath(new URL("../../../dist/cli/main.js", import.meta.url));

export interface Replica {
  readonly port: number;
  readonly pid: number;
  readonly child: ChildProcess;
  /** What it wrote to stderr. */
  readonly stderr: () => string;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** Starts one replica: `node <args…>`; resolves once it listens. */
export async function startReplica(args: string[]): Promise<Replica> {
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  const port = await new Promise<number>((resolve, reject) => {
    const look = () => {
      const found = /listening (?:on )?http:\/\/[^:]+:(\d+)/.exec(out + err);
      if (found) resolve(Number(found[1]));
    };
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk;
      look();
    });
    child.stderr!.on("data", (chunk: Buffer) => {
      err += chunk;
      look();
    });
    child.once("exit", (code) => reject(new Error(`replica exited (${code}): ${err}`)));
  });
  return {
    port,
    pid: child.pid!,
    child,
    stderr: () => err,
    async kill(signal = "SIGTERM") {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill(signal);
      await exited;
    },
  };
}

/** Starts `n` replicas of the fixture on `redisUrl`. */
export function startReplicas(
  n: number,
  redisUrl: string,
  args: (url: string) => string[] = (url) => [REPLICA, url],
) {
  return Promise.all(Array.from({ length: n }, () => startReplica(args(redisUrl))));
}
