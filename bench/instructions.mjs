#!/usr/bin/env node
/**
 * Instructions per echo `tools/call` over stdio, counted by valgrind's callgrind: what one side of
 * a round trip costs in user space, the same from run to run to about 1% for a server (about 5%
 * for a client, whose JIT timing varies more), whatever else the machine is doing. Timings on a
 * shared virtual machine move by 15% between runs; this tells whether a change helped.
 *
 *   node bench/instructions.mjs [--impl mcpkit] [--era legacy|modern] [--side server|client]
 *                               [--calls 20000] [--top 0]
 *
 * Two runs of the same side, one making 5,000 calls and one making 5,000 + `--calls`, after
 * 20,000 warm-up calls each; the difference in instructions, divided by `--calls`, is the cost of a
 * call without start-up. `--side server` runs the implementation's stdio server under callgrind,
 * driven by a minimal client that writes prepared requests one at a time; `--side client` runs the
 * implementation's bench client under callgrind against mcpkit's server. `--top N` lists the N
 * functions whose cost per call differs most from nothing, JavaScript functions named through V8's
 * `--perf-basic-prof` map. Needs valgrind (with callgrind_annotate).
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const BASE = 5000;
const WARMUP = 20_000;

function options() {
  const args = process.argv.slice(2);
  const o = { impl: "mcpkit", era: "legacy", side: "server", calls: 20_000, top: 0 };
  for (let i = 0; i < args.length; i++) {
    const key = args[i].replace(/^--/, "");
    if (!(key in o)) throw new Error(`unknown option ${args[i]}`);
    o[key] = typeof o[key] === "number" ? Number(args[++i]) : args[++i];
  }
  return o;
}

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "instructions", version: "1.0.0" },
};

/** The config of the servers measured or measured against. */
const serverConfig = (o) => JSON.stringify({ era: o.era, tools: 0, schema: "zod" });

/** Starts `node --perf-basic-prof …args` under callgrind; returns the process and its output file. */
function callgrind(dir, name, args, io) {
  const out = join(dir, `${name}.out`);
  const child = spawn(
    "valgrind",
    ["--tool=callgrind", `--callgrind-out-file=${out}`, process.execPath, "--perf-basic-prof", ...args],
    { cwd: ROOT, stdio: io },
  );
  return { child, out };
}

/** Drives a stdio server with prepared requests, one at a time. */
async function driveServer(dir, name, o, calls) {
  const { child, out } = callgrind(
    dir,
    name,
    [join("bench", "impl", o.impl, "server-stdio.mjs"), serverConfig(o)],
    ["pipe", "pipe", "ignore"],
  );
  let waiting;
  child.stdout.on("data", (chunk) => {
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) {
      const resolveAnswer = waiting;
      waiting = undefined;
      resolveAnswer?.();
    }
  });
  const ask = (text) =>
    new Promise((answered) => {
      waiting = answered;
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
        ...(o.era === "modern" ? { _meta: META } : {}),
      },
    }),
  );
  for (let i = 0; i < WARMUP + calls; i++) await ask(requests[i % requests.length]);
  const exited = new Promise((done) => child.once("exit", done));
  child.stdin.end();
  await exited;
  return out;
}

/** Runs the implementation's bench client against mcpkit's stdio server. */
async function driveClient(dir, name, o, calls) {
  const config = JSON.stringify({
    scenario: "echo",
    era: o.era,
    target: {
      transport: "stdio",
      command: process.execPath,
      args: [join("bench", "impl", "mcpkit", "server-stdio.mjs"), serverConfig(o)],
    },
    calls,
    warmup: WARMUP,
    concurrency: 1,
    repeats: 1,
    expectTools: 3,
  });
  const { child, out } = callgrind(
    dir,
    name,
    [join("bench", "impl", o.impl, "client.mjs"), config],
    "ignore",
  );
  const code = await new Promise((done) => child.once("exit", done));
  if (code !== 0) throw new Error(`the client under callgrind exited with ${code}`);
  return out;
}

/** Instructions per function (JavaScript named through the perf map), and the total. */
function costs(file) {
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
  return { total, byName };
}

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
    return `JS ${range[2].replace(`file://${ROOT}/`, "").replace(/:\d+:\d+$/, "")}`;
  };
}

async function main() {
  const o = options();
  if (spawnSync("valgrind", ["--version"]).status !== 0) throw new Error("valgrind is not installed");
  const dir = mkdtempSync(join(tmpdir(), "mcpkit-instructions-"));
  try {
    const drive = o.side === "client" ? driveClient : driveServer;
    const [small, large] = await Promise.all([
      drive(dir, "base", o, BASE),
      drive(dir, "more", o, BASE + o.calls),
    ]);
    const a = costs(small);
    const b = costs(large);
    const perCall = (x, y) => (y - x) / o.calls;
    process.stdout.write(
      `${o.impl} ${o.era} ${o.side}: ${Math.round(perCall(a.total, b.total))} instructions per call\n`,
    );
    if (o.top > 0) {
      const names = new Set([...a.byName.keys(), ...b.byName.keys()]);
      const rows = [...names]
        .map((name) => [name, perCall(a.byName.get(name) ?? 0, b.byName.get(name) ?? 0)])
        .sort((x, y) => Math.abs(y[1]) - Math.abs(x[1]))
        .slice(0, o.top);
      for (const [name, count] of rows)
        process.stdout.write(`${String(Math.round(count)).padStart(8)}  ${name}\n`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
