// conformance/baseline.json: the scored scenarios still expected to fail, per "<leg> <revision>".
// It may only shrink: a failure not in it fails the run, and so does an entry that passes now.
import { readFileSync } from "node:fs";

/** The expected failures of one leg and revision. */
export function readBaseline(file, leg, revision) {
  const baseline = JSON.parse(readFileSync(file, "utf8"));
  return new Set(baseline[`${leg} ${revision}`] ?? []);
}

/**
 * Compares outcomes (scenario → PASS | FAIL | SKIP, scored scenarios only) with the baseline. A scored
 * scenario that was skipped did not pass either.
 */
export function compare(outcomes, expected) {
  const failed = [...outcomes].filter(([, status]) => status !== "PASS").map(([name]) => name);
  const unexpected = failed.filter((name) => !expected.has(name));
  const fixed = [...expected].filter((name) => outcomes.get(name) === "PASS");
  const passed = outcomes.size - failed.length;
  const ok = outcomes.size > 0 && unexpected.length === 0 && fixed.length === 0;
  return { ok, passed, failed, unexpected, fixed };
}
