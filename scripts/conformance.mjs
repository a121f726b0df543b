#!/usr/bin/env node
// Runs the official conformance referee against our fixtures and compares the scored failures with
// conformance/baseline.json, which may only shrink:
//   node scripts/conformance.mjs server 2025-11-25
//   node scripts/conformance.mjs client 2025-11-25
//   node scripts/conformance.mjs server 2025-11-25 --replicas 3   (three replicas on Redis, behind a balancer)
// Exit 0 when every failure is in the baseline and every baseline entry still fails.
// The referee (pinned by conformance/referee/) and a Node >= 22 for it are installed from the npm
// registry into a cache (MCP_CONFORMANCE_CACHE, default ~/.cache/mcp-conformance) on first use.
import { createServer } from "node:net";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { compare, readBaseline } from "./conformance/baseline.mjs";
import { runReferee } from "./conformance/referee.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const [leg, revision = "2025-11-25", ...rest] = process.argv.slice(2);
const replicas = rest[0] === "--replicas" ? Number(rest[1]) : undefined;
if (replicas !== undefined && (leg !== "server" || !Number.isInteger(replicas) || replicas < 1)) {
  console.error("usage: conformance.mjs server <revision> --replicas N");
  process.exit(2);
}
if (leg !== "server" && leg !== "client") {
  console.error("usage: conformance.mjs server|client [revision]");
  process.exit(2);
}
const expected = readBaseline(join(root, "conformance/baseline.json"), leg, revision);

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

/** The skills extension's (SEP-2640) client scenarios: a host verifies what it loads, and loads lazily. */
const SKILLS_CLIENT_SCENARIOS = [
  "sep-2640-client-no-prefetch",
  "sep-2640-client-verify-digest",
  "sep-2640-client-verify-size",
  "sep-2640-client-verify-frontmatter",
];

/** The skills extension's server scenarios: listing and getting skills, SKILL.md, directory reads. */
const SKILLS_SERVER_SCENARIOS = [
  "sep-2640-skills-enumeration",
  "sep-2640-skills-manifest",
  "sep-2640-skills-directory",
];

/**
 * The referee's scenarios of the tasks extension (SEP-2663). tasks-status-notifications is left
 * out: the referee skips it itself (its check of notifications/tasks on subscriptions/listen is
 * not written).
 */
const TASKS_SCENARIOS = [
  "tasks-lifecycle",
  "tasks-capability-negotiation",
  "tasks-wire-fields",
  "tasks-request-state-removal",
  "tasks-mrtr-input",
  "tasks-request-headers",
  "tasks-dispatch-and-envelope",
  "tasks-required-task-error",
  "tasks-mrtr-composition",
];

/** Scored scenarios: name → PASS | FAIL | SKIP. */
const scored = (scenarios) => scenarios.filter((s) => s.scored).map((s) => [s.name, s.status]);

const outcomes = new Map();
try {
  if (leg === "server") {
    const start = replicas ? `REPLICAS=${replicas} npm run -s fixture:replicas` : "npm run -s fixture:server";
    const fixture = { mode: "server", start, cwd: root };
    const port = await freePort();
    const scenarios = await runReferee({
      ...fixture,
      target: `http://localhost:${port}/mcp`,
      requirements: revision,
    });
    for (const [name, status] of scored(scenarios)) outcomes.set(name, status);
    // The requirement set of 2026-07-28 runs the tasks extension's scenarios without scoring them;
    // here they count like scored ones, and one that did not run fails. Their 2025-11-25 form
    // (tasks in the core) has no referee scenario. Against replicas too: the bundled servers keep
    // their tasks in Redis, and a task's input and cancellation travel to the replica running it.
    if (revision === "2026-07-28") {
      const ran = new Map(scenarios.map((s) => [s.name, s.status]));
      for (const name of TASKS_SCENARIOS) outcomes.set(name, ran.get(name) ?? "FAIL");
    }
    // The skills extension's server scenarios belong to no requirement set; they speak 2026-07-28.
    if (revision === "2026-07-28") {
      for (const scenario of SKILLS_SERVER_SCENARIOS) {
        const single = await runReferee({
          ...fixture,
          target: `http://localhost:${await freePort()}/mcp`,
          scenario,
        });
        for (const [name, status] of scored(single)) outcomes.set(name, status);
      }
    }
  } else {
    // Timing-sensitive scenarios run alone, after the rest, so a loaded machine cannot make them flaky.
    const alone = revision === "2025-11-25" ? ["sse-retry"] : [];
    const target = `node ${join(root, "test/fixtures/conformance-client.js")}`;
    const all = await runReferee({ mode: "client", target, requirements: revision, cwd: root });
    for (const [name, status] of scored(all)) if (!alone.includes(name)) outcomes.set(name, status);
    const runAlone = async (scenario) => {
      // Extension scenarios are off the spec timeline: a spec version would skip them.
      const specVersion = SKILLS_CLIENT_SCENARIOS.includes(scenario) ? undefined : revision;
      const single = await runReferee({ mode: "client", target, specVersion, scenario, cwd: root });
      for (const [name, status] of scored(single)) outcomes.set(name, status);
    };
    for (const scenario of alone) await runAlone(scenario);
    // The requirement sets leave out the 2025-03-26 back-compat scenarios and do not score the
    // extensions; both run on the 2025 wire, so that leg runs their suites as well, scored here.
    if (revision === "2025-11-25") {
      for (const suite of ["backcompat", "extensions"]) {
        const extra = await runReferee({ mode: "client", target, suite, cwd: root });
        for (const { name, status } of extra) outcomes.set(name, status);
      }
      // The skills extension's client scenarios belong to no suite: each runs by name.
      for (const scenario of SKILLS_CLIENT_SCENARIOS) await runAlone(scenario);
    }
    // The suite starts every scenario at once; on a loaded machine a client can miss its deadlines.
    // A failure the baseline does not expect counts only if the scenario fails alone too.
    const again = [...outcomes].filter(([name, status]) => status !== "PASS" && !expected.has(name));
    for (const [scenario] of again.filter(([name]) => name !== "<referee>")) {
      console.error(`conformance: ${scenario} failed in the suite; running it alone`);
      await runAlone(scenario);
    }
  }
} catch (error) {
  console.error(`conformance: ${error.message}`);
  process.exit(2);
}

const { ok, passed, failed, unexpected, fixed } = compare(outcomes, expected);
if (outcomes.size === 0) console.error("conformance: the referee reported no scenario");
for (const name of unexpected) console.error(`conformance: ${name} fails and is not in the baseline`);
for (const name of fixed)
  console.error(`conformance: ${name} passes now; remove it from conformance/baseline.json`);
console.log(
  `conformance ${leg} ${revision}: ${passed} passed, ${failed.length} failed (${failed.length - unexpected.length} in the baseline)`,
);
process.exit(ok ? 0 : 1);
