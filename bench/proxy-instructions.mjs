#!/usr/bin/env node
/**
 * Instructions per proxied echo `tools/call`, counted by valgrind's callgrind in the `mcpkit proxy`
 * process alone (stdio → proxy → stdio, or with `--front http` Streamable HTTP → proxy → stdio;
 * the upstream, mcpkit's stdio bench server, runs outside valgrind). Like bench/instructions.mjs:
 * two runs, one making `--base` calls and one `--base` + `--calls`, after `--warmup` calls each;
 * the difference over `--calls` is one call without start-up. The defaults are those of
 * bench/instructions.mjs for the front's transport (stdio: 20,000, 5,000 and 20,000; HTTP: 5,000,
 * 2,000 and 5,000), so that the proxy and the server and client it is compared with are counted
 * alike: 4,000 calls after 3,000, the stdio defaults once, saw a young collection or none, 7k
 * instructions a call apart. Run after `npm run build` (some 20 minutes a count):
 *
 *   node bench/proxy-instructions.mjs [--era modern|legacy] [--front stdio|http] [--warmup N]
 *                                     [--base N] [--calls N] [--audit] [--predictable] [--top 0]
 *                                     [--reps 1]
 *
 * `--audit` gives the proxy an audit log in a temporary folder. `--predictable` runs the proxy
 * with V8's `--predictable` (one thread, no timer-driven collections): over stdio its counts then
 * repeat, where otherwise a collection that falls in one run and not the other moves them by a
 * quarter; compare them with `bench/instructions.mjs --predictable true` counts. Over HTTP they
 * do not: TurboFan compiles and the collector runs at other calls in the two runs of a count
 * (most likely through timers, which fire by the clock that valgrind slows), and the
 * difference moves by ±30k a call, below zero as often as above; `--reps N` makes N counts one
 * after the other and prints each and their median. `--top N` lists the N functions that cost most
 * per call (of the median count).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { costs, hasValgrind } from "./instructions.mjs";
import { RawHttpClient } from "./lib/http-raw.mjs";
import { announcedProxyUrl } from "./lib/proxy-url.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at < 0 ? fallback : args[at + 1];
};
const ERA = option("--era", "modern");
const FRONT = option("--front", "stdio");
if (FRONT !== "stdio" && FRONT !== "http") throw new Error(`--front takes stdio or http, not ${FRONT}`);
const DEFAULTS = FRONT === "http" ? [5_000, 2_000, 5_000] : [20_000, 5_000, 20_000];
const WARMUP = Number(option("--warmup", DEFAULTS[0]));
const BASE = Number(option("--base", DEFAULTS[1]));
const CALLS = Number(option("--calls", DEFAULTS[2]));
const TOP = Number(option("--top", 0));
const REPS = Number(option("--reps", 1));
const AUDIT = args.includes("--audit");
const PREDICTABLE = args.includes("--predictable");

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "instructions", version: "1.0.0" },
};
const line = (message) => `${JSON.stringify(message)}\n`;

/** Starts the proxy under callgrind, its front on stdio or on an HTTP port. */
function startProxy(dir, name) {
  const out = join(dir, `${name}.out`);
  const audit = AUDIT ? ["--audit", join(dir, `${name}.jsonl`)] : [];
  const server = [join(ROOT, "bench/impl/mcpkit/server-stdio.mjs"), JSON.stringify({ era: ERA })];
  const child = spawn(
    "valgrind",
    [
      "--tool=callgrind",
      `--callgrind-out-file=${out}`,
      process.execPath,
      "--perf-basic-prof",
      // --perf-basic-prof turns on V8's log too: kept with the output, not in the checkout.
      `--logfile=${join(dir, `${name}.v8.log`)}`,
      "--no-logfile-per-isolate",
      ...(PREDICTABLE ? ["--predictable"] : []),
      join(ROOT, "dist/cli/main.js"),
      "proxy",
      ...(FRONT === "http" ? ["--port", "0"] : []),
      ...audit,
      "--",
      process.execPath,
      ...server,
    ],
    { cwd: ROOT, stdio: ["pipe", "pipe", FRONT === "http" ? "pipe" : "ignore"] },
  );
  return { child, out };
}

const echo = (id) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "echo", arguments: { message: "hello" }, ...(ERA === "modern" ? { _meta: META } : {}) },
});
const initialize = {
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: {
    protocolVersion: "2025-11-25",
    capabilities: {},
    clientInfo: META["io.modelcontextprotocol/clientInfo"],
  },
};

/** Makes `total` calls through the proxy's stdio front, one at a time. */
async function callOverStdio(child, total) {
  let waiting;
  let text = "";
  child.stdout.setEncoding("utf8").on("data", (chunk) => {
    text += chunk;
    const end = text.lastIndexOf("\n");
    if (end < 0) return;
    const lines = text.slice(0, end).split("\n");
    text = text.slice(end + 1);
    for (const answer of lines) {
      if (!answer.includes('"id"')) continue;
      const resolve = waiting;
      waiting = undefined;
      resolve?.(answer);
    }
  });
  const ask = (request) =>
    new Promise((resolve) => {
      waiting = resolve;
      child.stdin.write(request);
    });
  if (ERA === "legacy") {
    await ask(line(initialize));
    child.stdin.write(line({ jsonrpc: "2.0", method: "notifications/initialized" }));
  }
  const requests = Array.from({ length: 100 }, (_, i) => line(echo(i + 1)));
  const first = await ask(requests[0]);
  if (!first.includes("hello")) throw new Error(`the proxy answered ${first.slice(0, 300)}`);
  for (let i = 1; i < total; i++) await ask(requests[i % requests.length]);
  child.stdin.end();
}

/** Makes `total` calls through the proxy's HTTP front, one at a time, then stops it (SIGTERM). */
async function callOverHttp(child, total) {
  const url = await announcedProxyUrl(child);
  const client = new RawHttpClient(url);
  try {
    let headers;
    if (ERA === "legacy") {
      const opened = await client.post(initialize);
      headers = { "mcp-protocol-version": "2025-11-25", "mcp-session-id": opened.headers["mcp-session-id"] };
      await client.post({ jsonrpc: "2.0", method: "notifications/initialized" }, headers);
    } else {
      headers = { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "echo" };
    }
    for (let i = 0; i < total; i++) {
      const answer = await client.post(echo(i + 1), headers);
      if (answer.status !== 200 || !answer.body.includes("hello"))
        throw new Error(
          `tools/call through the proxy answered HTTP ${answer.status}: ${answer.body.slice(0, 300)}`,
        );
    }
  } finally {
    client.close();
    child.kill("SIGTERM");
  }
}

/** Runs the proxy under callgrind for `warmup + calls` calls; resolves with its output file. */
async function drive(dir, name, calls) {
  const { child, out } = startProxy(dir, name);
  const exited = new Promise((done) => child.once("exit", done));
  await (FRONT === "http" ? callOverHttp : callOverStdio)(child, WARMUP + calls);
  await exited;
  return out;
}

/** One count: two runs under callgrind; per call, the total and each function's instructions. */
async function count(dir, rep) {
  const [small, large] = await Promise.all([
    drive(dir, `base-${rep}`, BASE),
    drive(dir, `more-${rep}`, BASE + CALLS),
  ]);
  const a = costs(small);
  const b = costs(large);
  const perCall = (x, y) => (y - x) / CALLS;
  const names = new Set([...a.byName.keys(), ...b.byName.keys()]);
  const rows = [...names].map((name) => [name, perCall(a.byName.get(name) ?? 0, b.byName.get(name) ?? 0)]);
  return { total: perCall(a.total, b.total), rows };
}

if (!hasValgrind()) throw new Error("valgrind is not installed");
if (!Number.isInteger(REPS) || REPS < 1)
  throw new Error(`--reps takes a whole number of 1 or more, not ${REPS}`);
const dir = mkdtempSync(join(tmpdir(), "mcpkit-proxy-instructions-"));
try {
  const counts = [];
  for (let rep = 1; rep <= REPS; rep++) counts.push(await count(dir, rep));
  const label = `mcpkit proxy ${ERA} ${FRONT}${AUDIT ? " --audit" : ""}${PREDICTABLE ? " --predictable" : ""}`;
  const sorted = [...counts].sort((x, y) => x.total - y.total);
  const median = sorted[(sorted.length - 1) >> 1];
  if (REPS > 1) {
    const each = counts.map((c) => Math.round(c.total)).join(", ");
    process.stdout.write(`${label}: counts ${each}; median below\n`);
  }
  process.stdout.write(`${label}: ${Math.round(median.total)} instructions per call\n`);
  const rows = median.rows.sort((x, y) => Math.abs(y[1]) - Math.abs(x[1])).slice(0, TOP);
  for (const [name, perCall] of rows)
    process.stdout.write(`${String(Math.round(perCall)).padStart(8)}  ${name}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
