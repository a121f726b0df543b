/**
 * The client half of the driver protocol, shared by every implementation's `client.mjs`.
 *
 * The driver runs `node bench/impl/<name>/client.mjs '<config JSON>'`; the script passes
 * `runClient` a `connect(target, config)` adapter giving `{ call, list, close }` over its
 * implementation's client; `runClient` runs the scenario and prints exactly one JSON line on stdout:
 * `{ "ok": true, "metrics": { … } }` or `{ "ok": false, "error": "…" }`. Everything else goes to
 * stderr. The config says what to run:
 *
 *   scenario     "echo" | "list" | "cold" | "big" | "tasks" (the adapter's `task(name, args)`)
 *   target       { transport: "stdio", command, args } (the client spawns the server) or
 *                { transport: "http", url } (the driver started the server)
 *   era          "legacy" (2025-11-25 handshake) or "modern" (2026-07-28)
 *   calls, warmup, concurrency, repeats, expectTools
 */
import { BIG_SIZE, ECHO_MESSAGE } from "./workload.mjs";

/** Runs `total` calls of `one`, at most `concurrency` at a time. */
async function drive(one, total, concurrency) {
  let started = 0;
  const worker = async () => {
    while (started < total) {
      started++;
      await one();
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, total)) }, worker));
}

async function serverStats(conn, collect = false) {
  return JSON.parse(await conn.call("stats", collect ? { gc: true } : {}));
}

const cpuMicros = (usage) => usage.user + usage.system;

async function echo(conn, config) {
  const one = async () => {
    const text = await conn.call("echo", { message: ECHO_MESSAGE });
    if (text !== ECHO_MESSAGE) throw new Error(`echo answered ${JSON.stringify(text)?.slice(0, 200)}`);
  };
  await drive(one, config.warmup, config.concurrency);
  const before = await serverStats(conn);
  const clientBefore = process.cpuUsage();
  const start = performance.now();
  await drive(one, config.calls, config.concurrency);
  const ms = performance.now() - start;
  const clientCpu = process.cpuUsage(clientBefore);
  const after = await serverStats(conn);
  return {
    callsPerSec: config.calls / (ms / 1000),
    serverCpuUsPerCall: (cpuMicros(after.cpu) - cpuMicros(before.cpu)) / config.calls,
    clientCpuUsPerCall: cpuMicros(clientCpu) / config.calls,
    ms,
  };
}

async function list(conn, config) {
  const timeList = async () => {
    const start = performance.now();
    const tools = await conn.list();
    const ms = performance.now() - start;
    if (tools.length !== config.expectTools)
      throw new Error(`tools/list gave ${tools.length} tools, expected ${config.expectTools}`);
    return ms;
  };
  const firstMs = await timeList();
  const warm = [];
  for (let i = 0; i < config.repeats; i++) warm.push(await timeList());
  warm.sort((a, b) => a - b);
  const stats = await serverStats(conn, true);
  const {
    beforeRegister: before,
    schemasBuilt: built,
    afterRegister: registered,
    memory: now,
    times,
  } = stats;
  if (!before || !built || !registered) throw new Error("the server reported no registration memory marks");
  const schemasMs = times.schemasBuilt - times.created;
  return {
    // Server start: process start → tools registered; `own`: without building the schema objects
    // (and importing zod for them), which is the application's code.
    startMs: times.registered,
    ownStartMs: times.registered - schemasMs,
    schemasMs,
    registerMs: times.registered - times.schemasBuilt,
    schemasHeapMiB: (built.heapUsed - before.heapUsed) / 2 ** 20,
    ownHeapMiB: (now.heapUsed - built.heapUsed) / 2 ** 20,
    ownRssMiB: (now.rss - built.rss) / 2 ** 20,
    firstMs,
    warmMs: warm.length ? warm[Math.floor((warm.length - 1) / 2)] : Number.NaN,
    registerHeapMiB: (registered.heapUsed - before.heapUsed) / 2 ** 20,
    registerRssMiB: (registered.rss - before.rss) / 2 ** 20,
    listedHeapMiB: (now.heapUsed - before.heapUsed) / 2 ** 20,
    listedRssMiB: (now.rss - before.rss) / 2 ** 20,
  };
}

/**
 * Tasks: each created by a `tools/call` of `echo_task`, polled (`tasks/get`, no pause) until it
 * is completed, and its result fetched, one task at a time: the adapter's `task(name, args)`.
 */
async function tasks(conn, config) {
  if (!conn.task) throw new Error("this implementation's client runs no tasks");
  const one = async () => {
    const text = await conn.task("echo_task", { message: ECHO_MESSAGE });
    if (text !== ECHO_MESSAGE) throw new Error(`the task answered ${JSON.stringify(text)?.slice(0, 200)}`);
  };
  for (let i = 0; i < config.warmup; i++) await one();
  const before = await serverStats(conn);
  const clientBefore = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < config.calls; i++) await one();
  const ms = performance.now() - start;
  const clientCpu = process.cpuUsage(clientBefore);
  const after = await serverStats(conn);
  return {
    msPerTask: ms / config.calls,
    serverCpuUsPerTask: (cpuMicros(after.cpu) - cpuMicros(before.cpu)) / config.calls,
    clientCpuUsPerTask: cpuMicros(clientCpu) / config.calls,
  };
}

async function big(conn, config) {
  const one = async () => {
    const text = await conn.call("big", {});
    if (typeof text !== "string" || text.length !== BIG_SIZE)
      throw new Error(`big answered ${typeof text === "string" ? `${text.length} characters` : typeof text}`);
  };
  for (let i = 0; i < config.warmup; i++) await one();
  const before = await serverStats(conn);
  const clientBefore = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < config.repeats; i++) await one();
  const ms = performance.now() - start;
  const clientCpu = process.cpuUsage(clientBefore);
  const after = await serverStats(conn);
  return {
    msPerCall: ms / config.repeats,
    serverCpuMsPerCall: (cpuMicros(after.cpu) - cpuMicros(before.cpu)) / 1000 / config.repeats,
    clientCpuMsPerCall: cpuMicros(clientCpu) / 1000 / config.repeats,
  };
}

function fail(error) {
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.stdout.write(`${JSON.stringify({ ok: false, error: message })}\n`);
  process.exit(1);
}

/** Parses the config, runs its scenario over `connect`, prints the result line, then exits. */
export async function runClient(connect) {
  const config = JSON.parse(process.argv[2] ?? "{}");
  let conn;
  let metrics;
  try {
    if (config.scenario === "cold") {
      // Spawn (stdio) → handshake → the first full tools/list.
      const start = performance.now();
      conn = await connect(config.target, config);
      const connectMs = performance.now() - start;
      const tools = await conn.list();
      const totalMs = performance.now() - start;
      if (tools.length !== config.expectTools)
        throw new Error(`tools/list gave ${tools.length} tools, expected ${config.expectTools}`);
      metrics = { totalMs, connectMs, clientReadyMs: start };
    } else {
      conn = await connect(config.target, config);
      const run = { echo, list, big, tasks }[config.scenario];
      if (!run) throw new Error(`unknown scenario ${config.scenario}`);
      metrics = await run(conn, config);
    }
  } catch (error) {
    fail(error);
  }
  process.stdout.write(`${JSON.stringify({ ok: true, metrics })}\n`);
  // Closing is not measured; a client that does not finish closing in time is cut short.
  setTimeout(() => process.exit(0), 5000).unref();
  await conn.close().catch(() => {});
  process.exit(0);
}

/** Follows `nextCursor` to the end with a `page(cursor)` that returns `{ tools, nextCursor }`. */
export async function allPages(page) {
  const tools = [];
  let cursor;
  do {
    const result = await page(cursor);
    for (const tool of result.tools) tools.push(tool);
    cursor = result.nextCursor;
  } while (cursor !== undefined);
  return tools;
}
