/**
 * A real redis-server on a free port with nothing saved to disk, for tests and the replica
 * launcher, never a system service. It fails (does not skip) when redis-server is not installed.
 */
import { execFileSync, spawn } from "node:child_process";
import { createServer } from "node:net";

/** A free TCP port on 127.0.0.1. */
export async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function requireRedisServer() {
  try {
    execFileSync("redis-server", ["--version"], { stdio: "pipe" });
  } catch {
    throw new Error(
      "redis-server is not installed; the replica tests need it: apt-get install -y redis-server (Debian/Ubuntu) or brew install redis",
    );
  }
}

export async function startRedis() {
  requireRedisServer();
  const port = await freePort();
  let child;
  const start = async () => {
    const started = spawn(
      "redis-server",
      ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    child = started;
    await new Promise((resolve, reject) => {
      let out = "";
      started.stdout.on("data", (chunk) => {
        out += chunk;
        if (out.includes("Ready to accept connections")) resolve();
      });
      started.once("exit", (code) => reject(new Error(`redis-server exited (${code}): ${out}`)));
    });
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    start,
    async stop() {
      const running = child;
      child = undefined;
      if (!running || running.exitCode !== null) return;
      const exited = new Promise((resolve) => running.once("exit", resolve));
      running.kill("SIGKILL");
      await exited;
    },
    signal(name) {
      if (child && child.exitCode === null) child.kill(name);
    },
    cli: (...args) => execFileSync("redis-cli", ["-p", String(port), ...args], { encoding: "utf8" }).trim(),
  };
}
