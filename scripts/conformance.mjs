#!/usr/bin/env node
// Runs the official conformance referee (through ../shared/conformance/run.sh) against our fixtures and
// compares the scored failures with conformance/baseline.json, which may only shrink:
//   node scripts/conformance.mjs server 2025-11-25
//   node scripts/conformance.mjs client 2025-11-25
// Exit 0 when every failure is in the baseline and every baseline entry still fails.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const runner = resolve(root, "../shared/conformance/run.sh");
const [leg, revision = "2025-11-25"] = process.argv.slice(2);
if (leg !== "server" && leg !== "client") {
  console.error("usage: conformance.mjs server|client [revision]");
  process.exit(2);
}
const baseline = JSON.parse(readFileSync(join(root, "conformance/baseline.json"), "utf8"));
const expected = new Set(baseline[`${leg} ${revision}`] ?? []);

function freePort() {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once("error", fail);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => done(port));
    });
  });
}

function run(args) {
  return new Promise((done) => {
    const child = spawn("bash", [runner, ...args], { cwd: root, stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (chunk) => {
      out += chunk;
      process.stdout.write(chunk);
    });
    child.on("close", (code) => done({ code, out }));
  });
}

/** Scored scenario results: lines "PASS name" / "FAIL name" (a "*" marks unscored ones). */
function results(out) {
  const scored = new Map();
  for (const line of out.split("\n")) {
    const match = /^(PASS|FAIL|SKIP)\s+(\S+)/.exec(line);
    if (match) scored.set(match[2], match[1]);
  }
  return scored;
}

const outcomes = new Map();
if (leg === "server") {
  const port = await freePort();
  const { out } = await run([
    "-r",
    revision,
    "--start",
    "npm run -s fixture:server",
    "--details",
    "server",
    `http://localhost:${port}/mcp`,
  ]);
  for (const [name, status] of results(out)) outcomes.set(name, status);
} else {
  // Timing-sensitive scenarios run alone, after the rest, so a loaded machine cannot make them flaky.
  const alone = revision === "2025-11-25" ? ["sse-retry"] : [];
  const command = `node ${join(root, "test/fixtures/conformance-client.js")}`;
  const { out } = await run(["-r", revision, "--details", "client", command]);
  for (const [name, status] of results(out)) if (!alone.includes(name)) outcomes.set(name, status);
  for (const name of alone) {
    const single = await run(["-v", revision, "-c", name, "--details", "client", command]);
    for (const [scenario, status] of results(single.out)) outcomes.set(scenario, status);
  }
}

// A scored scenario that was skipped did not pass either.
const failed = [...outcomes].filter(([, status]) => status !== "PASS").map(([name]) => name);
const unexpected = failed.filter((name) => !expected.has(name));
const fixed = [...expected].filter((name) => outcomes.get(name) === "PASS");
if (outcomes.size === 0) console.error("conformance: the referee reported no scenario");
for (const name of unexpected) console.error(`conformance: ${name} fails and is not in the baseline`);
for (const name of fixed)
  console.error(`conformance: ${name} passes now; remove it from conformance/baseline.json`);
const passed = [...outcomes.values()].filter((status) => status === "PASS").length;
console.log(
  `conformance ${leg} ${revision}: ${passed} passed, ${failed.length} failed (${failed.length - unexpected.length} in the baseline)`,
);
process.exit(outcomes.size === 0 || unexpected.length > 0 || fixed.length > 0 ? 1 : 0);
