// Per-scenario verdicts from one referee run: its results folder (one `<scenario>-<timestamp>/checks.json`
// per scenario) and its log, whose summary lines carry the authoritative counts and say which
// scenarios a requirement set does not score.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { stripVTControlCharacters } from "node:util";

const STAMP = /-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/;

/** scenario name → its checks (null when checks.json is missing or unreadable). */
function resultFolders(resultsDir, mode) {
  const found = new Map();
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const full = join(dir, entry.name);
      if (!STAMP.test(entry.name)) {
        walk(full);
        continue;
      }
      let name = relative(resultsDir, full).split(sep).join("/").replace(STAMP, "");
      if (mode === "server") name = name.replace(/^server-/, "");
      let checks = null;
      try {
        checks = JSON.parse(readFileSync(join(full, "checks.json"), "utf8"));
      } catch {
        checks = null;
      }
      found.set(name, checks);
    }
  };
  if (existsSync(resultsDir)) walk(resultsDir);
  return found;
}

/** What the referee's log says: per-scenario counts, skipped and unscored scenarios, in its order. */
function readLog(log) {
  const order = [];
  const note = (name) => {
    if (!order.includes(name)) order.push(name);
  };
  const counts = new Map();
  for (const m of log.matchAll(/^([✓✗]) (\S+): (\d+) passed, (\d+) failed(?:, (\d+) warnings)?$/gm)) {
    counts.set(m[2], { passed: Number(m[3]), failed: Number(m[4]), warnings: Number(m[5] ?? 0) });
    note(m[2]);
  }
  const skipped = new Set();
  for (const m of log.matchAll(/^- (\S+): skipped$/gm)) {
    skipped.add(m[1]);
    note(m[1]);
  }
  for (const m of log.matchAll(/^SKIPPED: scenario '([^']+)'/gm)) skipped.add(m[1]);
  const unscored = new Map();
  const tail = log.split(/^Not scored for /m)[1];
  if (tail) for (const m of tail.matchAll(/^\s+[✓✗] (\S+) \(([^)]*)\)$/gm)) unscored.set(m[1], m[2]);
  return { order, counts, skipped, unscored };
}

/**
 * The verdict of every scenario: PASS, FAIL or SKIP, `scored` false for those the requirement set
 * does not score. A scenario without results failed (it crashed or never finished); in client mode a
 * warning fails too. A referee that timed out or crashed adds a failed `<referee>` entry.
 */
export function summarise({ resultsDir, log: rawLog, mode, code, timedOut, timeoutS }) {
  const log = stripVTControlCharacters(rawLog);
  const found = resultFolders(resultsDir, mode);
  const { order, counts, skipped, unscored } = readLog(log);
  for (const name of [...found.keys()].sort()) if (!order.includes(name)) order.push(name);

  const scenarios = [];
  for (const name of order) {
    const checks = found.get(name) ?? null;
    const count = (status) => (checks ?? []).filter((c) => c.status === status).length;
    const fromLog = counts.get(name);
    const passed = fromLog?.passed ?? count("SUCCESS");
    let failed = fromLog?.failed ?? count("FAILURE");
    const warnings = fromLog?.warnings || count("WARNING");
    let status;
    let note;
    if (skipped.has(name) && !fromLog) status = "SKIP";
    else if (!checks && !fromLog) {
      status = "FAIL";
      failed = Math.max(failed, 1);
      note = "no results (scenario crashed or never finished)";
    } else if (failed > 0 || (mode === "client" && warnings > 0)) status = "FAIL";
    else if (passed === 0) status = "SKIP";
    else status = "PASS";
    if (note === undefined && status !== "SKIP") {
      note = `${passed} passed, ${failed} failed${warnings ? `, ${warnings} warnings` : ""}`;
    }
    const problems = (checks ?? [])
      .filter((c) => c.status === "FAILURE" || c.status === "WARNING")
      .map((c) => ({
        failure: c.status === "FAILURE",
        id: c.id,
        message: String(c.errorMessage || c.description || "")
          .replace(/\s+/g, " ")
          .slice(0, 200),
      }));
    const scored = !unscored.has(name);
    if (!scored) note = [note, `not scored: ${unscored.get(name)}`].filter(Boolean).join("; ");
    scenarios.push({ name, status, scored, note, passed, failed, warnings, problems });
  }
  if (timedOut) {
    scenarios.push(refereeFailure(`timed out after ${timeoutS}s; scenarios not listed above never finished`));
  } else if (code > 1 || (order.length === 0 && code !== 0)) {
    scenarios.push(refereeFailure(`exited with status ${code}; see the referee log`));
  }
  return scenarios;
}

function refereeFailure(note) {
  return {
    name: "<referee>",
    status: "FAIL",
    scored: true,
    note,
    passed: 0,
    failed: 0,
    warnings: 0,
    problems: [],
  };
}

/** The summary as printed: one line per scenario (`*` marks unscored ones), failing checks under it. */
export function formatSummary(scenarios, { details = true } = {}) {
  const lines = [];
  for (const s of scenarios) {
    const tag = s.scored ? s.status : `${s.status}*`;
    lines.push(`${tag.padEnd(5)} ${s.name}${s.note ? `  (${s.note})` : ""}`);
    if (details)
      for (const p of s.problems) lines.push(`        ${p.failure ? "-" : "~"} ${p.id}: ${p.message}`);
  }
  if (scenarios.length === 0) lines.push("(the referee ran no scenarios)");
  const real = scenarios.filter((s) => s.name !== "<referee>");
  const sum = (key) => real.reduce((total, s) => total + s[key], 0);
  const skippedCount = real.filter((s) => s.scored && s.status === "SKIP").length;
  const unscoredCount = real.filter((s) => !s.scored).length;
  lines.push(
    `checks: ${sum("passed")} passed, ${sum("failed")} failed, ${sum("warnings")} warnings; ` +
      `scenarios skipped: ${skippedCount}${unscoredCount ? `; not scored (marked *): ${unscoredCount}` : ""}`,
  );
  return lines.join("\n");
}
