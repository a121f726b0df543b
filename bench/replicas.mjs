#!/usr/bin/env node
/**
 * Replicas on Redis against one process in memory: `echo` calls through a round-robin balancer to
 * 1 or 3 replica processes, 2025-11-25 sessions and 2026-07-28 stateless requests, sequential and
 * 16 in flight; the replicas' CPU per call (summed over them, from process.cpuUsage()), redis-server's
 * CPU per call, calls per second, and Redis memory per idle session. Interleaved repetitions, medians,
 * ratios to the in-memory single replica of the same run. See bench/README.md.
 *
 *   node bench/replicas.mjs [--reps 3] [--calls 2000] [--sessions 1000]
 */
import { fork } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { McpClient } from "mcpkit/client";
import { startBalancer } from "../scripts/replicas/balancer.mjs";
import { startRedis } from "../scripts/replicas/redis-server.mjs";

const BENCH = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
const REPS = option("--reps", 3);
const CALLS = option("--calls", 2000);
const WARMUP = Math.ceil(CALLS / 4);
const SESSIONS = option("--sessions", 1000);

const CONFIGS = [
  { id: "memory×1", store: "memory", replicas: 1 },
  { id: "redis×1", store: "redis", replicas: 1 },
  { id: "redis×3", store: "redis", replicas: 3 },
  { id: "memory×3", store: "memory", replicas: 3, statelessOnly: true },
];
const ERAS = ["2025-11-25", "2026-07-28"];
const IN_FLIGHT = [1, 16];

const redis = await startRedis();
const redisPid = Number(redis.cli("INFO", "server").match(/process_id:(\d+)/)[1]);

/** redis-server's CPU time so far, in µs (utime + stime from /proc). */
function redisCpu() {
  const stat = readFileSync(`/proc/${redisPid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / 100;
}

async function startReplicas(config) {
  const where = config.store === "memory" ? "memory" : redis.url;
  const children = Array.from({ length: config.replicas }, () =>
    fork(join(BENCH, "impl/replicas/server.mjs"), [where], { stdio: ["ignore", "ignore", "inherit", "ipc"] }),
  );
  const ports = await Promise.all(
    children.map((child) => new Promise((resolve) => child.once("message", ({ port }) => resolve(port)))),
  );
  const balancer = await startBalancer(() => ports);
  const cpu = async () => {
    let total = 0;
    for (const child of children) {
      const { cpu } = await new Promise((resolve) => {
        child.once("message", resolve);
        child.send("cpu");
      });
      total += cpu.user + cpu.system;
    }
    return total;
  };
  return {
    url: balancer.url,
    cpu,
    async stop() {
      await balancer.close();
      await Promise.all(
        children.map(
          (child) =>
            new Promise((resolve) => {
              child.once("exit", resolve);
              child.disconnect();
            }),
        ),
      );
    },
  };
}

async function calls(client, n, inFlight) {
  let next = 0;
  const worker = async () => {
    while (next < n) {
      next++;
      const result = await client.callTool("echo", { message: "hello" });
      if (result.text() !== "hello") throw new Error(`unexpected answer ${result.text()}`);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
}

async function measure(config, era, inFlight) {
  const deployment = await startReplicas(config);
  try {
    const client = await McpClient.connect({ url: deployment.url, protocolVersion: era });
    await calls(client, WARMUP, inFlight);
    const [cpu0, redis0, t0] = [await deployment.cpu(), redisCpu(), performance.now()];
    await calls(client, CALLS, inFlight);
    const elapsed = performance.now() - t0;
    const [cpu1, redis1] = [await deployment.cpu(), redisCpu()];
    await client.close();
    return {
      callsPerSecond: (CALLS * 1000) / elapsed,
      cpuPerCall: (cpu1 - cpu0) / CALLS,
      redisPerCall: (redis1 - redis0) / CALLS,
    };
  } finally {
    await deployment.stop();
  }
}

/** Redis memory per idle 2025-11-25 session: `used_memory` growth across opening `SESSIONS`, divided. */
async function sessionMemory() {
  const deployment = await startReplicas({ store: "redis", replicas: 1 });
  try {
    redis.cli("FLUSHALL");
    const used = () => Number(redis.cli("INFO", "memory").match(/used_memory:(\d+)/)[1]);
    const before = used();
    const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    for (let i = 0; i < SESSIONS; i++) {
      const init = await fetch(deployment.url, {
        method: "POST",
        headers,
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: {
            protocolVersion: "2025-11-25",
            capabilities: { elicitation: {} },
            clientInfo: { name: "bench", version: "1.0.0" },
          },
        }),
      });
      await init.text();
      const session = {
        ...headers,
        "mcp-session-id": init.headers.get("mcp-session-id"),
        "mcp-protocol-version": "2025-11-25",
      };
      await (
        await fetch(deployment.url, {
          method: "POST",
          headers: session,
          body: '{"jsonrpc":"2.0","method":"notifications/initialized"}',
        })
      ).text();
    }
    return (used() - before) / SESSIONS;
  } finally {
    await deployment.stop();
  }
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

const results = new Map();
const key = (config, era, inFlight) => `${config.id} ${era} ${inFlight}`;
for (let rep = 0; rep < REPS; rep++) {
  // Each repetition starts one configuration further along, so none always runs first.
  const order = CONFIGS.map((_, i) => CONFIGS[(i + rep) % CONFIGS.length]);
  for (const era of ERAS)
    for (const inFlight of IN_FLIGHT)
      for (const config of order) {
        if (config.statelessOnly && era !== "2026-07-28") continue;
        const k = key(config, era, inFlight);
        const list = results.get(k) ?? [];
        list.push(await measure(config, era, inFlight));
        results.set(k, list);
        process.stderr.write(".");
      }
}
const perSession = await sessionMemory();
await redis.stop();
process.stderr.write("\n");

const lines = [
  `# Replicas: ${REPS} repetitions, ${CALLS} calls after ${WARMUP}, Node ${process.version}`,
  "",
  "| era | in flight | deployment | calls/s | replicas' CPU µs/call | × memory×1 | redis-server CPU µs/call |",
  "|---|---|---|---|---|---|---|",
];
for (const era of ERAS)
  for (const inFlight of IN_FLIGHT) {
    const base = results.get(key(CONFIGS[0], era, inFlight)).map((r) => r.cpuPerCall);
    for (const config of CONFIGS) {
      const runs = results.get(key(config, era, inFlight));
      if (!runs) continue;
      const cpu = median(runs.map((r) => r.cpuPerCall));
      const row = [
        era,
        inFlight,
        config.id,
        median(runs.map((r) => r.callsPerSecond)).toFixed(0),
        cpu.toFixed(0),
        `${(cpu / median(base)).toFixed(2)}×`,
        median(runs.map((r) => r.redisPerCall)).toFixed(0),
      ];
      lines.push(`| ${row.join(" | ")} |`);
    }
  }
lines.push(
  "",
  `Redis memory per idle 2025-11-25 session: ${(perSession / 1024).toFixed(2)} KiB (${SESSIONS} sessions)`,
);
lines.push("", "Targets: redis×1 2025-11-25 ≤ 1.5× and 2026-07-28 ≤ 1.1× memory×1's server CPU per call.");
console.log(lines.join("\n"));
