/**
 * What `mcpkit proxy` adds to a call: sequential `tools/call` of the bench's `echo` tool on
 * mcpkit's stdio server, directly and through a `mcpkit proxy` process, served over stdio
 * (stdio → proxy → stdio) and over Streamable HTTP (HTTP → proxy → stdio). Per call: the client's
 * wall time, and the CPU time of each server-side process (the upstream server and the proxy),
 * read from /proc. Run after `npm run build`:
 *
 *   node bench/proxy.mjs [--calls N] [--reps N] [--gap MS] [--audit]
 *
 * `--audit` gives the proxy an audit log (a file in a temporary folder), to see what a line costs.
 * Prints a Markdown table of medians over the repetitions (interleaved, fresh processes each).
 */
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { McpClient } from "mcpkit/client";
import { announcedProxyUrl } from "./lib/proxy-url.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CLI = join(ROOT, "dist/cli/main.js");
const SERVER = join(ROOT, "bench/impl/mcpkit/server-stdio.mjs");
const TICK_US = 1e6 / 100; // CLK_TCK is 100 on Linux

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at < 0 ? fallback : Number(args[at + 1]);
};
const CALLS = option("--calls", 10_000);
const WARMUP = Math.min(2_000, Math.ceil(CALLS / 5));
const REPS = option("--reps", 3);
const AUDIT = args.includes("--audit");
const GAP = option("--gap", 0);

/** CPU µs (user + system) a process used so far. */
function cpuOf(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * TICK_US;
}

/** The direct children of `pid`. */
function childrenOf(pid) {
  return readdirSync("/proc").flatMap((entry) => {
    if (!/^\d+$/.test(entry)) return [];
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      return Number(fields[1]) === pid ? [Number(entry)] : [];
    } catch {
      return [];
    }
  });
}

/** The first child of `pid` once it has one. */
async function childOf(pid) {
  for (let i = 0; i < 200; i++) {
    const [child] = childrenOf(pid);
    if (child) return child;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`process ${pid} started no child`);
}

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Warm-up, then `CALLS` sequential calls: µs per call of wall time and of each process's CPU.
 * `gap` ms between calls leave the processes idle as long as a proxied call does: a process woken
 * for each call spends more CPU on it than one kept busy.
 */
async function measure(client, pids, gap = 0) {
  for (let i = 0; i < WARMUP; i++) await client.callTool("echo", { message: "hi" });
  const before = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuOf(pid)]));
  const own = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < CALLS; i++) {
    await client.callTool("echo", { message: "hi" });
    if (gap) await pause(gap);
  }
  const wall = ((performance.now() - started) * 1000) / CALLS;
  const used = process.cpuUsage(own);
  const cpu = Object.fromEntries(
    Object.entries(pids).map(([name, pid]) => [name, (cpuOf(pid) - before[name]) / CALLS]),
  );
  cpu.client = (used.user + used.system) / CALLS;
  return { wall, cpu };
}

async function proxyArgs(front) {
  const extra = [];
  let dir;
  if (AUDIT) {
    dir = await mkdtemp(join(tmpdir(), "mcpkit-bench-audit-"));
    extra.push("--audit", join(dir, "audit.jsonl"));
  }
  return { args: [CLI, "proxy", ...front, ...extra, "--", process.execPath, SERVER, "{}"], dir };
}

const scenarios = {
  /** stdio, no proxy. */
  async direct() {
    const client = await McpClient.connect({ command: process.execPath, args: [SERVER, "{}"] });
    try {
      return await measure(client, { server: client.transport.pid });
    } finally {
      await client.close();
    }
  },
  /** stdio → proxy → stdio. */
  async "stdio-proxy"() {
    const { args: proxy, dir } = await proxyArgs([]);
    const client = await McpClient.connect({ command: process.execPath, args: proxy });
    try {
      const pid = client.transport.pid;
      return await measure(client, { server: await childOf(pid), proxy: pid });
    } finally {
      await client.close();
      if (dir) await rm(dir, { recursive: true, force: true });
    }
  },
  /**
   * stdio, no proxy, paced like the calls through the proxy just measured: `--gap` ms between
   * calls, or the whole ms the proxy added to a call (a timer adds its own delay on top).
   */
  async "direct-paced"() {
    const last = (name) => results[name].at(-1).wall;
    const gap = GAP || Math.max(1, Math.floor((last("stdio-proxy") - last("direct")) / 1000));
    const client = await McpClient.connect({ command: process.execPath, args: [SERVER, "{}"] });
    try {
      return { ...(await measure(client, { server: client.transport.pid }, gap)), gap };
    } finally {
      await client.close();
    }
  },
  /** Streamable HTTP → proxy → stdio. */
  async "http-proxy"() {
    const { args: proxy, dir } = await proxyArgs(["--port", "0"]);
    const child = spawn(process.execPath, proxy, { stdio: ["ignore", "ignore", "pipe"] });
    const url = await announcedProxyUrl(child);
    const client = await McpClient.connect({ url, protocolVersion: "2025-11-25" });
    try {
      return await measure(client, { server: await childOf(child.pid), proxy: child.pid });
    } finally {
      await client.close();
      child.kill("SIGTERM");
      await new Promise((resolve) => child.once("exit", resolve));
      if (dir) await rm(dir, { recursive: true, force: true });
    }
  },
};

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

const results = Object.fromEntries(Object.keys(scenarios).map((name) => [name, []]));
for (let rep = 0; rep < REPS; rep++) {
  for (const [name, run] of Object.entries(scenarios)) results[name].push(await run());
}

const direct = results.direct;
const directWall = median(direct.map((r) => r.wall));
const directCpu = median(direct.map((r) => r.cpu.server));
// An mcpkit server plus an mcpkit client: what the proxy, one of each, is measured against, at
// the pace of calls through the proxy.
const paced = results["direct-paced"];
const pair = (runs) => median(runs.map((r) => r.cpu.server + r.cpu.client));
const directPair = pair(paced);
const fmt = (n) => n.toFixed(1);
const lines = [
  `${CALLS} sequential echo calls after ${WARMUP} warm-up, median of ${REPS}${AUDIT ? ", proxy with an audit log" : ""}`,
  "",
  "| path | wall µs/call | added µs/call | client CPU µs/call | upstream CPU µs/call | proxy CPU µs/call | server-side CPU / direct | proxy / (server + client) direct |",
  "|---|---|---|---|---|---|---|---|",
  `| direct (stdio) | ${fmt(directWall)} | – | ${fmt(median(direct.map((r) => r.cpu.client)))} | ${fmt(directCpu)} | – | 1.00× | – |`,
  `| direct, ${median(paced.map((r) => r.gap))} ms between calls | ${fmt(median(paced.map((r) => r.wall)))} | – | ${fmt(median(paced.map((r) => r.cpu.client)))} | ${fmt(median(paced.map((r) => r.cpu.server)))} | – | – | – |`,
];
for (const name of ["stdio-proxy", "http-proxy"]) {
  const runs = results[name];
  const wall = median(runs.map((r) => r.wall));
  const server = median(runs.map((r) => r.cpu.server));
  const proxy = median(runs.map((r) => r.cpu.proxy));
  const client = median(runs.map((r) => r.cpu.client));
  lines.push(
    `| ${name} | ${fmt(wall)} | ${fmt(wall - directWall)} | ${fmt(client)} | ${fmt(server)} | ${fmt(proxy)} | ${((server + proxy) / directCpu).toFixed(2)}× | ${(proxy / directPair).toFixed(2)}× |`,
  );
}
lines.push(
  "",
  `proxy / (server + client): the proxy's CPU per call over an mcpkit server's plus an mcpkit client's as paced (${fmt(directPair)} µs); server + client kept busy: ${fmt(pair(direct))} µs.`,
  `Direct calls kept busy cost each process less than calls a few ms apart, which wake it every time: compare the upstream's CPU with the paced row, not the first.`,
);
process.stdout.write(`${lines.join("\n")}\n`);
