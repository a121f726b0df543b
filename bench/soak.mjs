#!/usr/bin/env node
/**
 * A soak run: sustained calls to an mcpkit server over stdio and over HTTP, in both eras, with the
 * server's memory (RSS and heap after a full GC) sampled as it goes, and the slope of each over
 * the run reported. A slope near zero means nothing accumulates per call; a steady climb is a
 * leak. Not part of `npm test`: it takes minutes.
 *
 *   npm run build && node bench/soak.mjs [--minutes 2] [--in-flight 16] [--sample 5]
 */
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { McpClient } from "../dist/client/index.js";

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(`--${name}`);
  return at === -1 ? fallback : Number(args[at + 1]);
};
const minutes = option("minutes", 2);
const inFlight = option("in-flight", 16);
const sampleSeconds = option("sample", 5);
const SERVER = new URL("./lib/soak-server.mjs", import.meta.url).pathname;

/** Least-squares slope of `points` ([seconds, bytes]), in KiB per minute. */
function slope(points) {
  const n = points.length;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const sxy = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const sxx = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  return sxx === 0 ? 0 : ((sxy / sxx) * 60) / 1024;
}

async function connect(transport, protocolVersion) {
  if (transport === "stdio") {
    return {
      client: await McpClient.connect({
        command: process.execPath,
        args: ["--expose-gc", SERVER],
        protocolVersion,
      }),
    };
  }
  const child = spawn(process.execPath, ["--expose-gc", SERVER, "http"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const [url] = await new Promise((resolve) =>
    createInterface({ input: child.stdout }).once("line", (line) => resolve([line])),
  );
  return { client: await McpClient.connect({ url, protocolVersion }), child };
}

async function memory(client) {
  return JSON.parse((await client.callTool("memory")).text());
}

async function soak(transport, protocolVersion) {
  const { client, child } = await connect(transport, protocolVersion);
  const deadline = Date.now() + minutes * 60_000;
  const started = Date.now();
  const samples = [];
  let calls = 0;
  const worker = async () => {
    while (Date.now() < deadline) {
      await client.callTool("echo", { text: `call ${calls}` });
      calls++;
    }
  };
  const sampler = (async () => {
    while (Date.now() < deadline) {
      samples.push({ at: (Date.now() - started) / 1000, ...(await memory(client)) });
      await new Promise((resolve) => setTimeout(resolve, sampleSeconds * 1000));
    }
  })();
  await Promise.all([...Array.from({ length: inFlight }, worker), sampler]);
  samples.push({ at: (Date.now() - started) / 1000, ...(await memory(client)) });
  await client.close();
  child?.kill();
  // The first sample is before warm-up; the slope is taken over the rest.
  const steady = samples.slice(1);
  return {
    scenario: `${transport} ${protocolVersion}`,
    calls,
    callsPerSecond: Math.round(calls / (minutes * 60)),
    rssMiB: (samples.at(-1).rss / 2 ** 20).toFixed(1),
    rssSlope: slope(steady.map((s) => [s.at, s.rss])).toFixed(1),
    heapSlope: slope(steady.map((s) => [s.at, s.heapUsed])).toFixed(1),
  };
}

const rows = [];
for (const transport of ["stdio", "http"]) {
  for (const version of ["2025-11-25", "2026-07-28"]) rows.push(await soak(transport, version));
}
console.log(
  `soak: ${minutes} min per scenario, ${inFlight} calls in flight, memory every ${sampleSeconds} s`,
);
console.log(
  "| scenario | calls | calls/s | server RSS at end (MiB) | RSS slope (KiB/min) | heap slope (KiB/min) |",
);
console.log("|---|---|---|---|---|---|");
for (const r of rows) {
  console.log(
    `| ${r.scenario} | ${r.calls} | ${r.callsPerSecond} | ${r.rssMiB} | ${r.rssSlope} | ${r.heapSlope} |`,
  );
}
