#!/usr/bin/env node
/**
 * Instructions per echo `tools/call`, over stdio or Streamable HTTP, counted by valgrind's
 * callgrind: what one side of a round trip costs in user space, the same from run to run to about
 * 1% for a server (about 5% for a client, whose JIT timing varies more), whatever else the machine
 * is doing. Timings on a shared virtual machine move by 15% between runs; this tells whether a
 * change helped.
 *
 *   node bench/instructions.mjs [--impl mcpkit] [--era legacy|modern] [--side server|client]
 *                               [--transport stdio|http] [--warmup N] [--base N] [--calls N]
 *                               [--top 0] [--baseline-ref REF] [--feature oauth|noop3|task]
 *                               [--middleware otel|noop3] [--sessionless true] [--predictable true]
 *
 * Two runs of the same side, one making `--base` calls and one making `--base` + `--calls`, after
 * `--warmup` calls each (stdio: 20,000, 5,000 and 20,000; HTTP: 5,000, 2,000 and 5,000; tasks:
 * 2,000, 1,000 and 4,000); the difference in instructions, divided by `--calls`, is the cost of a
 * call without start-up.
 * `--side server` runs the implementation's server script under callgrind, driven by a minimal
 * client (prepared requests written to its stdin one at a time, or POSTed through a keep-alive
 * `node:http` agent); `--side client` runs the implementation's bench client under callgrind
 * against mcpkit's server. `--top N` lists the N functions whose cost per call differs most from
 * nothing, JavaScript functions named through V8's `--perf-basic-prof` map. `--baseline-ref REF`
 * counts a build of mcpkit from that git ref too (bench/lib/baseline.mjs), with the same scripts,
 * and prints the ratio. `--feature` counts a server doing more (bench/lib/feature-cells.mjs):
 * `oauth`, requests carrying a JWT access token it verifies (its issuer, bench/lib/oauth-issuer.mjs,
 * runs in this process); `noop3`, three no-op middlewares; `task`, over HTTP, tasks created, polled
 * and fetched by mcpkit's bench client (per task, not per call). `--middleware otel` traces the
 * process counted (MCPKIT_BENCH_MIDDLEWARE, bench/lib/middleware.mjs; not the peer), a server with
 * requests carrying a `traceparent` as a traced client's do; `--side sdk-span` and `--side
 * sdk-call` count the OpenTelemetry SDK's own floor instead, a span (or a call's span and
 * histogram value) per iteration of a loop (bench/lib/span-floor.mjs). `--sessionless true` serves
 * mcpkit's HTTP endpoint with `sessionless: true` (no sessions: after its `initialize`, each
 * 2025-11-25 call is served on a server session of its own). `--predictable true` runs the counted
 * node with V8's `--predictable` (one thread, no timer-driven collections): counts of a few hundred
 * calls then repeat to within 1%, where otherwise a compilation or a collection landing in one run
 * and not the other can swing them by more than the calls cost, even below zero; it is not the
 * method of the README's figures (V8 compiles and collects differently). Needs valgrind (with
 * callgrind_annotate).
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { baselineBuild } from "./lib/baseline.mjs";
import { FEATURE_CELLS, TASK_COUNTS } from "./lib/feature-cells.mjs";
import { RawHttpClient } from "./lib/http-raw.mjs";
import { startIssuer } from "./lib/oauth-issuer.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
/** Per transport: warm-up calls, then the calls of the smaller run, then `--calls` more in the larger. */
const COUNTS = {
  stdio: { warmup: 20_000, base: 5_000, calls: 20_000 },
  http: { warmup: 5_000, base: 2_000, calls: 5_000 },
};

function options() {
  const args = process.argv.slice(2);
  const o = {
    impl: "mcpkit",
    era: "legacy",
    side: "server",
    transport: "stdio",
    calls: 0,
    warmup: 0,
    base: 0,
    top: 0,
    middleware: "",
    "baseline-ref": "",
    feature: "",
    sessionless: "",
    predictable: "",
  };
  for (let i = 0; i < args.length; i++) {
    const key = args[i].replace(/^--/, "");
    if (!(key in o)) throw new Error(`unknown option ${args[i]}`);
    const value = args[++i];
    if (value === undefined) throw new Error(`${args[i - 1]} needs a value`);
    o[key] = typeof o[key] === "number" ? Number(value) : value;
  }
  if (o["baseline-ref"] && o.impl !== "mcpkit") throw new Error("--baseline-ref compares builds of mcpkit");
  for (const flag of ["sessionless", "predictable"]) {
    if (!["", "true", "false"].includes(o[flag])) throw new Error(`--${flag} takes true or false`);
    o[flag] = o[flag] === "true";
  }
  if (o.sessionless && (o.impl !== "mcpkit" || o.transport !== "http"))
    throw new Error("--sessionless true is an option of mcpkit's HTTP server");
  if (o.feature) {
    // The cell of that transport, or the feature's only one (oauth and task are HTTP cells).
    const cells = FEATURE_CELLS.filter((c) => c.key.endsWith(`-${o.feature}`));
    const cell = cells.find((c) => c.options.transport === o.transport) ?? cells[0];
    if (!cell) throw new Error(`--feature takes oauth, noop3 or task, not ${o.feature}`);
    Object.assign(o, cell.options);
    // Fewer tasks than calls: the default store holds 10,000 tasks.
    if (o.tasks) for (const [key, value] of Object.entries(TASK_COUNTS.full)) o[key] ||= value;
  }
  return withDefaults(o);
}

const SIDES = ["server", "client", "sdk-span", "sdk-call"];

/** Checks the options and fills in the counts of the transport. */
function withDefaults(o) {
  o = { transport: "stdio", era: "legacy", side: "server", ...o };
  const counts = COUNTS[o.transport];
  if (!counts) throw new Error(`--transport takes stdio or http, not ${o.transport}`);
  if (!["legacy", "modern"].includes(o.era)) throw new Error(`--era takes legacy or modern, not ${o.era}`);
  if (!SIDES.includes(o.side)) throw new Error(`--side takes ${SIDES.join(", ")}, not ${o.side}`);
  if (!["", "otel", "noop3"].includes(o.middleware ?? ""))
    throw new Error(`--middleware takes otel or noop3, not ${o.middleware}`);
  // For the process counted (the HTTP server a client is counted against runs without it).
  if (o.middleware) o.env = { ...o.env, MCPKIT_BENCH_MIDDLEWARE: o.middleware };
  for (const key of ["calls", "warmup", "base"]) o[key] ||= counts[key];
  return o;
}

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "instructions", version: "1.0.0" },
};

/** A traced client's trace context, which a traced server continues. */
const TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

/** The `_meta` of the driver's requests: the era's, and trace context towards a traced server. */
function requestMeta(o) {
  const meta = {
    ...(o.era === "modern" ? META : {}),
    ...(o.middleware === "otel" ? { traceparent: TRACEPARENT } : {}),
  };
  return Object.keys(meta).length > 0 ? { _meta: meta } : {};
}

/** The config of the servers measured or measured against. */
const serverConfig = (o) =>
  JSON.stringify({
    era: o.era,
    tools: 0,
    schema: "zod",
    ...(o.tasks && { tasks: true }),
    ...(o.auth && { auth: o.auth }),
    ...(o.sessionless && { sessionless: true }),
  });

/**
 * Starts `node --perf-basic-prof …args` under callgrind, with `o.env` added to the environment and
 * V8's `--predictable` when `o.predictable`; returns the process and its output file.
 */
function callgrind(dir, name, args, io, { env, predictable }) {
  const out = join(dir, `${name}.out`);
  // --perf-basic-prof turns on V8's log too: kept with the output, not in the checkout.
  const log = [`--logfile=${join(dir, `${name}.v8.log`)}`, "--no-logfile-per-isolate"];
  const node = [process.execPath, "--perf-basic-prof", ...log, ...(predictable ? ["--predictable"] : [])];
  const child = spawn("valgrind", ["--tool=callgrind", `--callgrind-out-file=${out}`, ...node, ...args], {
    cwd: ROOT,
    stdio: io,
    env: env ? { ...process.env, ...env } : process.env,
  });
  child.once("error", () => {});
  return { child, out };
}

/** Drives a stdio server with prepared requests, one at a time. */
async function driveStdioServer(dir, name, o, calls, root) {
  const { child, out } = callgrind(
    dir,
    name,
    [join(root, "bench", "impl", o.impl, "server-stdio.mjs"), serverConfig(o)],
    ["pipe", "pipe", "ignore"],
    o,
  );
  let waiting;
  let gone;
  child.stdout.on("data", (chunk) => {
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) {
      const answered = waiting?.answered;
      waiting = undefined;
      answered?.();
    }
  });
  // A server that dies would otherwise leave the next answer pending and the run ending silently.
  child.once("exit", (code, signal) => {
    gone = new Error(`${name}: the server exited (${signal ?? code}) before its last answer`);
    waiting?.failed(gone);
  });
  const ask = (text) =>
    new Promise((answered, failed) => {
      if (gone) return failed(gone);
      waiting = { answered, failed };
      child.stdin.write(text);
    });
  const line = (message) => `${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`;
  if (o.era === "legacy") {
    await ask(
      line({
        id: 0,
        method: "initialize",
        params: {
          protocolVersion: "2025-11-25",
          capabilities: {},
          clientInfo: META["io.modelcontextprotocol/clientInfo"],
        },
      }),
    );
    child.stdin.write(line({ method: "notifications/initialized" }));
  }
  const requests = Array.from({ length: 100 }, (_, i) =>
    line({
      id: i + 1,
      method: "tools/call",
      params: {
        name: "echo",
        arguments: { message: "hello" },
        ...requestMeta(o),
      },
    }),
  );
  for (let i = 0; i < o.warmup + calls; i++) await ask(requests[i % requests.length]);
  const exited = new Promise((done) => child.once("exit", done));
  child.stdin.end();
  await exited;
  return out;
}

/** Resolves with the URL a started HTTP server script announces on stdout. */
function announcedUrl(child) {
  return new Promise((resolveUrl, reject) => {
    let text = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk) => {
      text += chunk;
      const url = /\{"url":"([^"]+)"\}/.exec(text)?.[1];
      if (url) resolveUrl(url);
    });
    child.once("exit", (code) => reject(new Error(`the HTTP server exited (${code}) before listening`)));
  });
}

/** Stops an HTTP server script (SIGTERM, as bench/run.mjs does) and waits for it to exit. */
function stopServer(child) {
  const exited = new Promise((done) => child.once("exit", done));
  if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
  return exited;
}

/**
 * Under callgrind a protected server's first fetch of the issuer's keys can outlast its 5 s
 * timeout (answered 503); it fetches them again on the next request. A stateless echo call is
 * sent until one is not refused for that: the calls counted come after.
 */
async function untilKeysFetched(client, bearer) {
  const headers = { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "echo" };
  const params = { name: "echo", arguments: { message: "hello" }, _meta: META };
  for (let attempt = 1; ; attempt++) {
    const answer = await client.post(
      { jsonrpc: "2.0", id: 0, method: "tools/call", params },
      { ...headers, ...bearer },
    );
    if (answer.status === 200) return;
    if (answer.status !== 503 || attempt === 20)
      throw new Error(`the protected server answered HTTP ${answer.status}: ${answer.body.slice(0, 300)}`);
    await new Promise((resolveLater) => setTimeout(resolveLater, 1000));
  }
}

/** Drives an HTTP server with prepared POSTs, one at a time, through a keep-alive `node:http` client. */
async function driveHttpServer(dir, name, o, calls, root) {
  const { child, out } = callgrind(
    dir,
    name,
    [join(root, "bench", "impl", o.impl, "server-http.mjs"), serverConfig(o)],
    ["ignore", "pipe", "ignore"],
    o,
  );
  const client = new RawHttpClient(await announcedUrl(child));
  const bearer = o.token ? { authorization: `Bearer ${o.token}` } : {};
  try {
    if (o.token) await untilKeysFetched(client, bearer);
    let headers;
    if (o.era === "legacy") {
      const opened = await client.request(
        "initialize",
        {
          protocolVersion: "2025-11-25",
          capabilities: {},
          clientInfo: META["io.modelcontextprotocol/clientInfo"],
        },
        bearer,
      );
      headers = { "mcp-protocol-version": "2025-11-25", ...bearer };
      const session = opened.headers["mcp-session-id"];
      if (session) headers["mcp-session-id"] = session;
      await client.post({ jsonrpc: "2.0", method: "notifications/initialized" }, headers);
    } else {
      headers = {
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/call",
        "mcp-name": "echo",
        ...bearer,
      };
    }
    const params = {
      name: "echo",
      arguments: { message: "hello" },
      ...requestMeta(o),
    };
    for (let i = 0; i < o.warmup + calls; i++) {
      const answer = await client.post({ jsonrpc: "2.0", id: i + 1, method: "tools/call", params }, headers);
      if (answer.status !== 200 || !answer.body.includes("hello"))
        throw new Error(`tools/call answered HTTP ${answer.status}: ${answer.body.slice(0, 300)}`);
    }
  } finally {
    client.close();
    await stopServer(child);
  }
  return out;
}

/**
 * Tasks: the implementation's HTTP server under callgrind, driven by this checkout's mcpkit bench
 * client (bench/lib/client-common.mjs's `tasks`), which creates each task, polls it to its end and
 * fetches its result, `calls` times after `warmup`.
 */
async function driveTaskServer(dir, name, o, calls, root) {
  const { child, out } = callgrind(
    dir,
    name,
    [join(root, "bench", "impl", o.impl, "server-http.mjs"), serverConfig(o)],
    ["ignore", "pipe", "ignore"],
    o,
  );
  try {
    const config = JSON.stringify({
      scenario: "tasks",
      era: o.era,
      target: { transport: "http", url: await announcedUrl(child) },
      calls,
      warmup: o.warmup,
      concurrency: 1,
    });
    const client = spawn(process.execPath, [join(ROOT, "bench", "impl", "mcpkit", "client.mjs"), config], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "ignore"],
    });
    let printed = "";
    client.stdout.on("data", (chunk) => {
      printed += chunk;
    });
    const code = await new Promise((done) => client.once("exit", done));
    if (code !== 0) throw new Error(`the task client exited with ${code}: ${printed.slice(0, 500)}`);
  } finally {
    await stopServer(child);
  }
  return out;
}

/** Runs the implementation's bench client against mcpkit's server (this checkout's, on `transport`). */
async function driveClient(dir, name, o, calls, root) {
  let server;
  let target;
  const mcpkitServer = (script) => [join(ROOT, "bench", "impl", "mcpkit", script), serverConfig(o)];
  if (o.transport === "http") {
    server = spawn(process.execPath, mcpkitServer("server-http.mjs"), {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "ignore"],
      env: { ...process.env, MCPKIT_BENCH_MIDDLEWARE: "" },
    });
    target = { transport: "http", url: await announcedUrl(server) };
  } else {
    target = { transport: "stdio", command: process.execPath, args: mcpkitServer("server-stdio.mjs") };
  }
  const config = JSON.stringify({
    scenario: "echo",
    era: o.era,
    target,
    calls,
    warmup: o.warmup,
    concurrency: 1,
    repeats: 1,
    expectTools: 3,
  });
  try {
    const { child, out } = callgrind(
      dir,
      name,
      [join(root, "bench", "impl", o.impl, "client.mjs"), config],
      "ignore",
      o,
    );
    const code = await new Promise((done) => child.once("exit", done));
    if (code !== 0) throw new Error(`the client under callgrind exited with ${code}`);
    return out;
  } finally {
    if (server) await stopServer(server);
  }
}

/** Runs the loop of the SDK's floor (bench/lib/span-floor.mjs) for `calls` iterations after the warm-up. */
async function driveSdkFloor(dir, name, o, calls, root) {
  const shape = o.side === "sdk-span" ? "span" : "call";
  const config = JSON.stringify({ shape, warmup: o.warmup, calls });
  const { child, out } = callgrind(
    dir,
    name,
    [join(root, "bench", "lib", "span-floor.mjs"), config],
    "ignore",
    { predictable: o.predictable },
  );
  const code = await new Promise((done) => child.once("exit", done));
  if (code !== 0) throw new Error(`the SDK's floor under callgrind exited with ${code}`);
  return out;
}

/** Instructions per function (JavaScript named through the perf map), and the total, less `STARTUP_NOISE`. */
export function costs(file) {
  const text = spawnSync("callgrind_annotate", ["--threshold=100", file], {
    encoding: "utf8",
    maxBuffer: 1 << 28,
  }).stdout;
  const pid = /^pid: (\d+)/m.exec(readFileSync(file, "utf8"))?.[1];
  const jit = jitMap(pid);
  const byName = new Map();
  let total = 0;
  for (const row of text.split("\n")) {
    const m = /^\s*([\d,]+)\s+\(\s*[\d.]+%\)\s+(.*)$/.exec(row);
    if (!m) continue;
    const count = Number(m[1].replaceAll(",", ""));
    if (m[2].includes("PROGRAM TOTALS")) {
      total = count;
      continue;
    }
    const address = /^\?\?\?:0x([0-9a-f]+)/.exec(m[2]);
    const name =
      (address && jit(Number.parseInt(address[1], 16))) ?? m[2].replace(/\(.*\)/, "()").slice(0, 120);
    byName.set(name, (byName.get(name) ?? 0) + count);
  }
  for (const [name, count] of byName) {
    if (!STARTUP_NOISE.test(name)) continue;
    total -= count;
    byName.delete(name);
  }
  return { total, byName };
}

/**
 * Left out of every count: at start-up V8 picks its hash seeds by testing random numbers for
 * primality (`detail::sprp`), 5.8M to 12.3M instructions in four runs of `node -e 0`, different in
 * every process and unrelated to the calls counted.
 */
const STARTUP_NOISE = /detail::sprp\(/;

/** Names JIT code addresses through V8's /tmp/perf-<pid>.map. */
function jitMap(pid) {
  let ranges = [];
  try {
    ranges = readFileSync(`/tmp/perf-${pid}.map`, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((row) => {
        const [start, size, ...name] = row.split(" ");
        return [Number.parseInt(start, 16), Number.parseInt(size, 16), name.join(" ")];
      })
      .sort((a, b) => a[0] - b[0]);
    rmSync(`/tmp/perf-${pid}.map`, { force: true });
  } catch {
    // no map: addresses stay unnamed
  }
  return (address) => {
    let lo = 0;
    let hi = ranges.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (ranges[mid][0] <= address) lo = mid + 1;
      else hi = mid - 1;
    }
    const range = ranges[hi];
    if (!range || address >= range[0] + range[1]) return undefined;
    return `JS ${range[2].replace(/file:\/\/.*?\/(?=(dist|bench|node_modules)\/)/, "").replace(/:\d+:\d+$/, "")}`;
  };
}

/** Instructions per call of one build (`root`), and per function when `--top` asks. */
async function measure(dir, o, root, tag) {
  const drive = o.side.startsWith("sdk-")
    ? driveSdkFloor
    : o.side === "client"
      ? driveClient
      : o.tasks
        ? driveTaskServer
        : o.transport === "http"
          ? driveHttpServer
          : driveStdioServer;
  const [small, large] = await Promise.all([
    drive(dir, `${tag}-base`, o, o.base, root),
    drive(dir, `${tag}-more`, o, o.base + o.calls, root),
  ]);
  const a = costs(small);
  const b = costs(large);
  const perCall = (x, y) => (y - x) / o.calls;
  const names = new Set([...a.byName.keys(), ...b.byName.keys()]);
  const rows = [...names]
    .map((name) => [name, perCall(a.byName.get(name) ?? 0, b.byName.get(name) ?? 0)])
    .sort((x, y) => Math.abs(y[1]) - Math.abs(x[1]))
    .slice(0, o.top);
  return { perCall: perCall(a.total, b.total), rows };
}

/** Whether valgrind's callgrind can run here. */
export function hasValgrind() {
  return spawnSync("valgrind", ["--version"], { stdio: "ignore" }).status === 0;
}

/**
 * Instructions per call of one side of one implementation (`{ impl, era, side, transport }`, the
 * counts defaulting per transport), of this checkout's bench scripts or those under `root` (a
 * baseline build): `{ perCall, rows }`, `rows` the `top` functions.
 */
export async function countInstructions(given) {
  const o = withDefaults({ top: 0, ...given });
  const dir = mkdtempSync(join(tmpdir(), "mcpkit-instructions-"));
  // Both counts' servers verify tokens of one issuer, which runs here, outside callgrind.
  const issuer = o.oauth ? await startIssuer() : undefined;
  if (issuer) Object.assign(o, { auth: issuer.auth, token: issuer.token });
  try {
    return await measure(dir, o, given.root ?? ROOT, "m");
  } finally {
    await issuer?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  const o = options();
  if (!hasValgrind()) throw new Error("valgrind is not installed");
  const builds = [{ root: ROOT, label: o.impl }];
  if (o["baseline-ref"]) builds.push(baselineBuild(ROOT, o["baseline-ref"]));
  const counted = [];
  for (const build of builds) {
    const result = await countInstructions({ ...o, root: build.root });
    counted.push(result.perCall);
    process.stdout.write(
      `${build.label}${o.middleware ? `+${o.middleware}` : ""}${o.sessionless ? " sessionless: true," : ""} ${o.era} ${o.transport} ${o.side}: ${Math.round(result.perCall)} instructions per call\n`,
    );
    for (const [name, count] of result.rows)
      process.stdout.write(`${String(Math.round(count)).padStart(8)}  ${name}\n`);
  }
  if (counted.length === 2)
    process.stdout.write(
      `${builds[0].label} ÷ ${builds[1].label}: ${(counted[0] / counted[1]).toFixed(3)}\n`,
    );
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    process.stderr.write(`${error.stack ?? error}\n`);
    process.exit(1);
  });
}
