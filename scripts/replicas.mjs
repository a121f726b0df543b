#!/usr/bin/env node
// Runs a server as N replicas on one Redis behind a round-robin balancer (no sticky sessions), as
// a deployment would, for the conformance referee and for trying it out:
//   node scripts/replicas.mjs [--replicas 3] [--port 3000] [--redis redis://host:port] -- <command…>
// Each replica runs <command…> with "{redis}" replaced by the Redis URL; it must print
// "listening on http://…" (as `mcpkit serve --port 0 --redis {redis}` does). Without --redis a
// redis-server of its own is started on a free port. SIGTERM or SIGINT stops everything.
import { spawn } from "node:child_process";
import { startBalancer } from "./replicas/balancer.mjs";
import { startRedis } from "./replicas/redis-server.mjs";

const argv = process.argv.slice(2);
const dashes = argv.indexOf("--");
const own = dashes < 0 ? argv : argv.slice(0, dashes);
const command = dashes < 0 ? [] : argv.slice(dashes + 1);
const option = (name, fallback) => {
  const at = own.indexOf(name);
  return at < 0 ? fallback : own[at + 1];
};
const count = Number(option("--replicas", "3"));
const port = Number(option("--port", "3000"));
if (command.length === 0 || !Number.isInteger(count) || count < 1 || !Number.isInteger(port)) {
  console.error(
    "usage: replicas.mjs [--replicas N] [--port P] [--redis URL] -- <command…> ({redis} is replaced)",
  );
  process.exit(2);
}

const redis = option("--redis") ? undefined : await startRedis();
const url = option("--redis") ?? redis.url;
const children = [];
const stop = async (code) => {
  for (const child of children) child.kill("SIGTERM");
  await redis?.stop();
  process.exit(code);
};
process.once("SIGTERM", () => void stop(0));
process.once("SIGINT", () => void stop(0));

function startReplica() {
  const [file, ...args] = command.map((part) => part.replaceAll("{redis}", url));
  const child = spawn(file, args, { stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = "";
    const look = (chunk) => {
      out += chunk;
      process.stderr.write(chunk);
      const found = /listening (?:on )?http:\/\/[^:\s]+:(\d+)/.exec(out);
      if (found) resolve(Number(found[1]));
    };
    child.stdout.on("data", look);
    child.stderr.on("data", look);
    child.once("exit", (code) => reject(new Error(`a replica exited (${code}) before listening`)));
  });
}

let ports;
try {
  ports = await Promise.all(Array.from({ length: count }, startReplica));
} catch (error) {
  console.error(`replicas: ${error.message}`);
  await stop(1);
}
const balancer = await startBalancer(() => ports, { port });
console.error(`replicas: ${count} replicas on ${url} behind ${balancer.url} (round robin, no stickiness)`);
