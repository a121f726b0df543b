#!/usr/bin/env node
/**
 * Makes a run's Markdown report and SVG charts again from its JSON, without running anything:
 * after a change to the report or the charts (bench/lib/report.mjs, bench/lib/charts.mjs).
 * The JSON is read, never written; the summary and targets are computed again from its raw runs.
 *
 *   node bench/report.mjs bench/results/sample     reads sample.json, writes sample.md and sample-*.svg
 */
import { existsSync, readFileSync } from "node:fs";
import { writeReports } from "./lib/report.mjs";

const prefix = process.argv[2]?.replace(/\.(json|md)$/, "");
if (!prefix || process.argv.length > 3) {
  process.stderr.write(
    "usage: node bench/report.mjs PREFIX   (reads PREFIX.json, as bench/run.mjs --out PREFIX wrote it)\n",
  );
  process.exit(2);
}
if (!existsSync(`${prefix}.json`)) {
  process.stderr.write(
    `bench/report: ${prefix}.json does not exist: give the prefix a bench run wrote (--out)\n`,
  );
  process.exit(2);
}
const { meta, scenarios, variants, runs } = JSON.parse(readFileSync(`${prefix}.json`, "utf8"));
const files = writeReports(
  prefix,
  {
    meta,
    scenarios,
    variants,
    runs,
    quick: meta.mode === "quick",
    // bench/run.mjs counted instructions when they were asked for: they are in the runs, or the
    // reason they were not counted is in meta.
    instructions: meta.instructionsSkipped !== undefined || runs.some((r) => r.scenario === "instructions"),
  },
  { json: false },
);
process.stderr.write(`bench/report: wrote ${files.join(", ")}\n`);
