/**
 * Turns the runs into a summary (medians, spreads, ratios to the floor, targets) and writes it as
 * JSON (with every raw run), Markdown and SVG charts (bench/lib/charts.mjs).
 */
import { writeFileSync } from "node:fs";
import { basename } from "node:path";
import { buildCharts } from "./charts.mjs";
import { FEATURE_CELLS } from "./feature-cells.mjs";
import { CELLS, cellKey, evaluateInstructionTargets } from "./instructions-suite.mjs";
import { summarize } from "./stats.mjs";

function format(value, digits = 1) {
  if (!Number.isFinite(value)) return "–";
  return value.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
}

const ratioText = (value) => (Number.isFinite(value) ? `${value.toFixed(2)}×` : "–");

/** Per scenario, per variant, per metric: the summary over repetitions and the ratio to the floor. */
export function summarizeRuns(scenarios, variants, runs) {
  const floor = variants.find((v) => v.floor);
  const summary = {};
  for (const scenario of scenarios) {
    const byScenario = {};
    summary[scenario.id] = byScenario;
    const ok = runs.filter((r) => r.scenario === scenario.id && r.ok);
    for (const variant of variants) {
      const mine = ok.filter((r) => r.variant === variant.id);
      if (mine.length === 0) continue;
      const entry = {};
      byScenario[variant.id] = entry;
      for (const metric of scenario.metrics) {
        const values = mine.map((r) => r.metrics[metric.key]);
        const stats = summarize(values);
        const floorRuns = ok.filter((r) => r.variant === floor.id);
        const floorMedian = summarize(floorRuns.map((r) => r.metrics[metric.key])).median;
        // Ratios of runs of the same repetition: the two ran minutes apart at most.
        const paired = mine
          .map((r) => {
            const f = floorRuns.find((x) => x.rep === r.rep);
            return f ? r.metrics[metric.key] / f.metrics[metric.key] : Number.NaN;
          })
          .filter(Number.isFinite);
        entry[metric.key] = {
          ...stats,
          values,
          ratio: stats.median / floorMedian,
          ratioMin: paired.length ? Math.min(...paired) : Number.NaN,
          ratioMax: paired.length ? Math.max(...paired) : Number.NaN,
        };
      }
    }
  }
  return summary;
}

/** Every target of every non-floor variant: met, missed, or not measured. */
export function evaluateTargets(scenarios, variants, summary) {
  const results = [];
  for (const scenario of scenarios) {
    for (const metric of scenario.metrics) {
      if (!metric.target) continue;
      for (const variant of variants) {
        if (variant.floor) continue;
        const entry = summary[scenario.id]?.[variant.id]?.[metric.key];
        const { min, max, absMax, versus } = metric.target;
        let value;
        let met;
        let bound;
        if (versus) {
          // Against another implementation in this scenario, or this one in another scenario.
          if (versus.variant === variant.id) continue;
          const reference = versus.variant
            ? summary[scenario.id]?.[versus.variant]?.[metric.key]
            : summary[versus.scenario]?.[variant.id]?.[metric.key];
          value = entry && reference ? entry.median / reference.median : Number.NaN;
          bound = `≤ ${max}×`;
          met = value <= max;
        } else if (absMax !== undefined) {
          value = entry?.median;
          bound = `≤ ${absMax}`;
          met = value <= absMax;
        } else {
          value = entry?.ratio;
          bound = min !== undefined ? `≥ ${min}×` : `≤ ${max}×`;
          met = min !== undefined ? value >= min : value <= max;
        }
        results.push({
          scenario: scenario.id,
          metric: metric.key,
          variant: variant.id,
          target: bound,
          value: Number.isFinite(value) ? value : null,
          met: Number.isFinite(value) ? met : null,
          // How far off: the factor by which the value must improve to meet the target.
          factor:
            Number.isFinite(value) && !met
              ? absMax !== undefined
                ? value / absMax
                : min !== undefined
                  ? min / value
                  : value / max
              : null,
        });
      }
    }
  }
  return results;
}

function countsOf(scenario, quick, scale = 1) {
  const pick = (value) => (value && typeof value === "object" ? value[quick ? "quick" : "full"] : value);
  const scaled = (value) => Math.max(1, Math.round(pick(value) * scale)).toLocaleString("en-US");
  const parts = [];
  if (scenario.calls) {
    parts.push(
      `${scaled(scenario.calls)} calls after ${scaled(scenario.warmup)} warm-up calls, ${scenario.concurrency} in flight`,
    );
  }
  if (scenario.tools)
    parts.push(
      `${pick(scenario.tools).toLocaleString("en-US")} filler tools + 3; the first listing is timed, then ${pick(scenario.repeats)} more ("warm", median)`,
    );
  if (scenario.sessions) parts.push(`${pick(scenario.sessions).toLocaleString("en-US")} sessions`);
  if (scenario.kind === "big")
    parts.push(`${pick(scenario.repeats)} sequential calls after ${pick(scenario.warmup)} warm-up`);
  return parts.join("; ");
}

/** The instruction counts per variant and cell, with the ratio to the floor. */
function instructionsSection(line, meta, variants, runs) {
  line("## Instructions per call");
  line();
  if (meta.instructionsSkipped) {
    line(`Not measured: ${meta.instructionsSkipped}.`);
    line();
    return;
  }
  line(
    "User-space instructions per echo `tools/call` under valgrind's callgrind (bench/instructions.mjs): the server side driven by a minimal client, the client side against mcpkit's server; one count each, repeatable to about 1% (server) and 5% (client).",
  );
  line();
  const floor = runs.find(
    (r) => r.scenario === "instructions" && r.ok && variants.find((v) => v.floor)?.id === r.variant,
  );
  line(`| implementation | ${CELLS.map((c) => `${c.transport} ${c.side} | × floor`).join(" | ")} |`);
  line(`|---|${CELLS.map(() => "---|---|").join("")}`);
  for (const variant of variants) {
    const run = runs.find((r) => r.scenario === "instructions" && r.variant === variant.id);
    if (!run) continue;
    if (!run.ok) {
      line(
        `| ${variant.label} | failed: ${run.error.split("\n")[0].slice(0, 200)} |${" |".repeat(CELLS.length * 2 - 1)}`,
      );
      continue;
    }
    const cells = CELLS.map(cellKey).map((key) => {
      const value = run.metrics[key];
      const ratio = floor ? value / floor.metrics[key] : Number.NaN;
      return `${format(value / 1000, 1)}k | ${variant.floor ? "1" : ratioText(ratio)}`;
    });
    line(`| ${variant.label} | ${cells.join(" | ")} |`);
  }
  line();
  featureSection(line, variants, runs);
}

/** The feature cells (bench/lib/feature-cells.mjs): each count beside the plain cell it is held to. */
function featureSection(line, variants, runs) {
  const counted = runs.filter(
    (r) => r.scenario === "instructions" && r.ok && FEATURE_CELLS.some((c) => c.key in r.metrics),
  );
  if (counted.length === 0) return;
  line("What a server adds to a call (mcpkit's server only; the task cell counts per task):");
  line();
  line("| implementation | cell | what | instructions | plain cell | ratio |");
  line("|---|---|---|---|---|---|");
  for (const run of counted) {
    const variant = variants.find((v) => v.id === run.variant);
    for (const cell of FEATURE_CELLS) {
      const value = run.metrics[cell.key];
      const plain = run.metrics[cell.base];
      line(
        `| ${variant?.label ?? run.variant} | ${cell.key} | ${cell.label} | ${format(value / 1000, 1)}k | ${format(plain / 1000, 1)}k (${cell.base}) | ${ratioText(value / plain)} |`,
      );
    }
  }
  line();
}

function markdown(
  { meta, scenarios, variants, runs, quick, instructions },
  summary,
  targets,
  instructionTargets,
  charts,
) {
  const out = [];
  const line = (text = "") => out.push(text);
  line(
    `# mcpkit benchmark — ${meta.date.slice(0, 16).replace("T", " ")} UTC${quick ? " (quick smoke run)" : ""}`,
  );
  line();
  line(
    `${meta.mode} mode${(meta.scale ?? 1) !== 1 ? ` with throughput counts ×${meta.scale}` : ""}, ${meta.repetitions} repetitions, processes pinned: ${meta.pin ?? "none"} (see bench/README.md), implementations interleaved round-robin in every repetition, fresh processes for every measurement${(meta.jobs ?? 1) > 1 ? `; instruction counts ${meta.jobs} variants at a time` : ""}; ${meta.durationSec} s in all.`,
  );
  line(
    `Node ${meta.node}, ${meta.platform}, ${meta.cpu}, ${meta.memoryGiB} GiB; load average ${meta.loadAverageAtStart.join(" ")} at the start, ${meta.loadAverageAtEnd.join(" ")} at the end.`,
  );
  line(
    `mcpkit at ${meta.git.commit || "?"}${meta.git.srcChangedFiles ? ` with ${meta.git.srcChangedFiles} uncommitted file(s) in src/` : ""}, dist/ built ${meta.distBuilt}${meta.distBuiltAtEnd && meta.distBuiltAtEnd !== meta.distBuilt ? ` (**rebuilt during the run**, at ${meta.distBuiltAtEnd})` : ""}; ${Object.entries(
      meta.versions,
    )
      .map(([name, version]) => `${name} ${version}`)
      .join(", ")}.`,
  );
  line();
  line(
    "Values are medians over the repetitions with (min–max); **× floor** is the ratio of the medians with, in parentheses, the range of the per-repetition ratios (each implementation against the floor run of the same repetition). See bench/README.md for the method.",
  );
  line();
  if (charts.length) {
    line("## Charts");
    line();
    line(
      "The floor, mcpkit and the SDKs side by side, each scenario on its own axis: bars at the median of the repetitions (the instruction counts: one each), whiskers from min to max, the floor dashed; the tables below hold every number.",
    );
    line();
    for (const chart of charts) {
      line(`![${chart.title}](${chart.file})`);
      line();
    }
  }

  const others = variants.filter((v) => !v.floor);
  line("## Targets");
  line();
  line(`| scenario | metric | target | ${others.map((v) => v.label).join(" | ")} |`);
  line(`|---|---|---|${others.map(() => "---|").join("")}`);
  for (const scenario of scenarios) {
    for (const metric of scenario.metrics) {
      if (!metric.target) continue;
      const cells = others.map((variant) => {
        const t = targets.find(
          (x) => x.scenario === scenario.id && x.metric === metric.key && x.variant === variant.id,
        );
        if (!t || t.value === null) return "n/a";
        const shown =
          metric.target.absMax !== undefined ? format(t.value, metric.digits) : ratioText(t.value);
        return t.met ? `${shown} ✓` : `**${shown}** ✗`;
      });
      line(`| ${scenario.id} | ${metric.label} | ${metricTarget(metric, variants)} | ${cells.join(" | ")} |`);
    }
  }
  line();
  const missed = targets.filter((t) => t.variant === "mcpkit" && t.met === false);
  if (missed.length) {
    line("mcpkit misses:");
    for (const t of missed) {
      const scenario = scenarios.find((s) => s.id === t.scenario);
      const metric = scenario.metrics.find((m) => m.key === t.metric);
      const shown = metric.target.absMax !== undefined ? format(t.value, metric.digits) : ratioText(t.value);
      line(
        `- ${t.scenario} ${metric.label}: ${shown} against ${metricTarget(metric, variants)}, ${t.factor.toFixed(2)}× away`,
      );
    }
    line();
  }

  if (instructionTargets.length) {
    line("Instruction counts (callgrind, see below):");
    line();
    line("| target | variant | against | cell | value |");
    line("|---|---|---|---|---|");
    for (const t of instructionTargets) {
      const shown =
        t.value === null ? "n/a" : t.met ? `${ratioText(t.value)} ✓` : `**${ratioText(t.value)}** ✗`;
      line(`| ${t.label} ${t.bound} | ${t.variant} | ${t.reference} | ${t.cell} | ${shown} |`);
    }
    line();
  }

  if (instructions) instructionsSection(line, meta, variants, runs);

  line("## Results");
  for (const scenario of scenarios) {
    line();
    line(`### ${scenario.id}: ${scenario.title}`);
    line();
    line(`${countsOf(scenario, quick, meta.scale ?? 1) || "one measurement per process"}.`);
    line();
    const header = ["implementation"];
    for (const metric of scenario.metrics) header.push(metric.label, "× floor");
    line(`| ${header.join(" | ")} |`);
    line(`|${header.map(() => "---|").join("")}`);
    for (const variant of variants) {
      const entry = summary[scenario.id]?.[variant.id];
      const failed = runs.filter(
        (r) => r.scenario === scenario.id && r.variant === variant.id && !r.ok,
      ).length;
      if (!entry) {
        const skipped = meta.skipped.find((s) => s.scenario === scenario.id && s.variant === variant.id);
        const why = skipped ? `not run: ${skipped.reason}` : failed ? `all ${failed} runs failed` : "not run";
        line(`| ${variant.label} | ${why} |${" |".repeat(header.length - 2)}`);
        continue;
      }
      const cells = [variant.label + (failed ? ` (${failed} failed)` : "")];
      for (const metric of scenario.metrics) {
        const s = entry[metric.key];
        cells.push(
          `${format(s.median, metric.digits)} (${format(s.min, metric.digits)}–${format(s.max, metric.digits)})`,
        );
        cells.push(
          variant.floor
            ? "1"
            : `${ratioText(s.ratio)}${Number.isFinite(s.ratioMin) ? ` (${s.ratioMin.toFixed(2)}–${s.ratioMax.toFixed(2)})` : ""}`,
        );
      }
      line(`| ${cells.join(" | ")} |`);
    }
  }
  const failures = runs.filter((r) => !r.ok);
  if (failures.length) {
    line();
    line("## Failed runs");
    line();
    for (const r of failures) {
      line(`- ${r.scenario} ${r.variant} repetition ${r.rep}: ${r.error.split("\n")[0].slice(0, 400)}`);
    }
  }
  line();
  return out.join("\n");
}

function metricTarget(metric, variants = []) {
  const { min, max, absMax, versus } = metric.target;
  if (versus?.variant)
    return `≤ ${max}× ${variants.find((v) => v.id === versus.variant)?.label ?? versus.variant}`;
  if (versus?.scenario) return `≤ ${max}× ${versus.scenario}`;
  if (absMax !== undefined) return `≤ ${absMax}`;
  return min !== undefined ? `≥ ${min}× floor` : `≤ ${max}× floor`;
}

/**
 * Writes `<prefix>.json` (unless `json` is false: when the report is made again from that file),
 * `<prefix>.md` and the charts it shows, `<prefix>-<family>.svg`; returns their paths.
 */
export function writeReports(prefix, run, { json: writeJson = true } = {}) {
  const summary = summarizeRuns(run.scenarios, run.variants, run.runs);
  const targets = evaluateTargets(run.scenarios, run.variants, summary);
  // Without the instructions scenario there is nothing to check them against.
  const instructionTargets = run.instructions
    ? evaluateInstructionTargets(
        run.variants,
        run.runs.filter((r) => r.scenario === "instructions"),
      )
    : [];
  const json = {
    meta: run.meta,
    scenarios: run.scenarios,
    variants: run.variants,
    summary,
    targets,
    instructionTargets,
    runs: run.runs,
  };
  const charts = buildCharts(json).map((chart) => ({
    ...chart,
    path: `${prefix}-${chart.id}.svg`,
    file: `${basename(prefix)}-${chart.id}.svg`,
  }));
  const written = [];
  if (writeJson) {
    writeFileSync(`${prefix}.json`, `${JSON.stringify(json, null, 2)}\n`);
    written.push(`${prefix}.json`);
  }
  writeFileSync(`${prefix}.md`, markdown(run, summary, targets, instructionTargets, charts));
  written.push(`${prefix}.md`);
  for (const chart of charts) {
    writeFileSync(chart.path, chart.svg);
    written.push(chart.path);
  }
  return written;
}
