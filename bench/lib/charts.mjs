/**
 * The bench's charts: from a report (what bench/lib/report.mjs writes as JSON: meta, scenarios,
 * variants, summary, runs), one grouped horizontal bar chart per family of metrics — throughput,
 * time, memory, instructions per call — with the floor, mcpkit and the official SDKs side by
 * side in every scenario. Drawn by bench/lib/svg-bars.mjs.
 */
import { CELLS, cellKey } from "./instructions-suite.mjs";
import { renderBarChart } from "./svg-bars.mjs";

/**
 * The families: which metric of which scenario each panel shows. A scenario the run left out
 * has no panel, and a family without panels no chart.
 */
const FAMILIES = [
  {
    id: "throughput",
    title: "Throughput: echo tools/call per second",
    panels: [
      ["stdio-seq", "callsPerSec"],
      ["stdio-64", "callsPerSec"],
      ["http-seq", "callsPerSec"],
      ["http-64", "callsPerSec"],
    ],
  },
  {
    id: "latency",
    title: "Time: cold start, a 5 MiB result, listing 10,000 tools",
    panels: [
      ["cold", "totalMs"],
      ["cold-json", "totalMs"],
      ["big-stdio", "msPerCall"],
      ["big-http", "msPerCall"],
      ["list-10k", "firstMs"],
      ["list-10k-json", "firstMs"],
    ],
  },
  {
    id: "memory",
    title: "Memory: an idle session, 10,000 registered tools",
    panels: [
      ["sessions", "heapKiBPerSession"],
      ["list-10k", "listedHeapMiB"],
      ["list-10k-json", "listedHeapMiB"],
    ],
  },
];

/** Okabe–Ito colours (told apart with the common colour-vision deficiencies); the floor in grey. */
const COLOURS = {
  floor: "#8a8f98",
  mcpkit: "#0072B2",
  "mcpkit@modern": "#56B4E9",
  "sdk-v1": "#E69F00",
  "sdk-v2": "#D55E00",
  "sdk-v2@modern": "#CC79A7",
};
const SPARE_COLOURS = ["#009E73", "#F0E442", "#000000", "#882255"];

/**
 * The implementations compared: every variant but the traced ones and the OpenTelemetry SDK's own
 * floor, which answer another question (what tracing costs) and stay in the report's tables.
 */
const charted = (variants) => variants.filter((v) => !v.middleware && !v.sdkFloor);

const fixed = (value, digits) =>
  value.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
const plain = (title) => title.replaceAll("`", "");

function seriesOf(variants) {
  let spare = 0;
  return charted(variants).map((v) => ({
    id: v.id,
    label: v.label,
    color: COLOURS[v.id] ?? SPARE_COLOURS[spare++ % SPARE_COLOURS.length],
  }));
}

/** One scenario's metric: a bar per implementation measured, a note for one skipped or failed. */
function scenarioPanel(report, scenario, metric) {
  const { meta, summary, runs } = report;
  const floor = report.variants.find((v) => v.floor);
  const rows = [];
  for (const variant of charted(report.variants)) {
    const s = summary[scenario.id]?.[variant.id]?.[metric.key];
    if (s && Number.isFinite(s.median)) {
      const ratio = !variant.floor && Number.isFinite(s.ratio) ? ` (${s.ratio.toFixed(2)}× floor)` : "";
      rows.push({
        series: variant.id,
        value: s.median,
        min: s.min,
        max: s.max,
        text: `${fixed(s.median, metric.digits)}${ratio}`,
        tip: `${variant.label}: median ${fixed(s.median, metric.digits)} ${metric.label} (${fixed(s.min, metric.digits)}–${fixed(s.max, metric.digits)})${ratio}`,
      });
      continue;
    }
    const skipped = meta.skipped?.find((x) => x.scenario === scenario.id && x.variant === variant.id);
    const failed = runs.filter((r) => r.scenario === scenario.id && r.variant === variant.id && !r.ok).length;
    if (skipped) rows.push({ series: variant.id, note: `not run: ${skipped.reason}` });
    else if (failed) rows.push({ series: variant.id, note: `all ${failed} runs failed` });
  }
  if (!rows.some((r) => Number.isFinite(r.value))) return undefined;
  const floorMedian = floor && summary[scenario.id]?.[floor.id]?.[metric.key]?.median;
  return {
    id: scenario.id,
    title: `${scenario.id}: ${plain(scenario.title)}`,
    subtitle: `${metric.label}, ${metric.better} is better`,
    reference: Number.isFinite(floorMedian) ? { value: floorMedian, label: "the floor's median" } : undefined,
    rows,
  };
}

/** One cell of the instruction counts: a bar per implementation counted. */
function instructionsPanel(report, cell) {
  const key = cellKey(cell);
  const counted = report.runs.filter((r) => r.scenario === "instructions");
  const floor = counted.find((r) => r.ok && report.variants.find((v) => v.id === r.variant)?.floor);
  const rows = [];
  for (const variant of charted(report.variants)) {
    const run = counted.find((r) => r.variant === variant.id);
    if (!run) continue;
    if (!run.ok) {
      rows.push({ series: variant.id, note: `failed: ${run.error.split("\n")[0].slice(0, 100)}` });
      continue;
    }
    const value = run.metrics[key];
    if (!Number.isFinite(value)) continue;
    const ratio = floor && !variant.floor ? ` (${(value / floor.metrics[key]).toFixed(2)}× floor)` : "";
    rows.push({ series: variant.id, value, text: `${fixed(value / 1000, 1)}k${ratio}` });
  }
  if (!rows.some((r) => Number.isFinite(r.value))) return undefined;
  const floorValue = floor?.metrics[key];
  return {
    id: key,
    title: `instructions: ${cell.transport} ${cell.side}`,
    subtitle: "instructions per call, lower is better",
    reference: Number.isFinite(floorValue) ? { value: floorValue, label: "the floor's count" } : undefined,
    rows,
  };
}

function runLine(meta) {
  return `${meta.mode} run of ${meta.date.slice(0, 10)}, mcpkit at ${meta.git?.commit || "?"}, Node ${meta.node}, ${meta.cpu}`;
}

/**
 * The charts of a report, each `{ id, title, svg }`: the timed families (medians over the
 * repetitions, whiskers from min to max, the floor's median dashed) and the instruction counts.
 */
export function buildCharts(report) {
  const series = seriesOf(report.variants);
  const charts = [];
  for (const family of FAMILIES) {
    const panels = family.panels
      .map(([scenarioId, metricKey]) => {
        const scenario = report.scenarios.find((s) => s.id === scenarioId);
        const metric = scenario?.metrics.find((m) => m.key === metricKey);
        return metric && scenarioPanel(report, scenario, metric);
      })
      .filter(Boolean);
    if (panels.length === 0) continue;
    charts.push({
      id: family.id,
      title: family.title,
      model: {
        title: family.title,
        subtitle: `${runLine(report.meta)}; medians of ${report.meta.repetitions} repetition${report.meta.repetitions === 1 ? "" : "s"}`,
        referenceLabel: "the floor's median",
        series,
        panels,
      },
    });
  }
  const cells = CELLS.map((cell) => instructionsPanel(report, cell)).filter(Boolean);
  if (cells.length) {
    const title = "Instructions per echo tools/call (callgrind)";
    charts.push({
      id: "instructions",
      title,
      model: {
        title,
        subtitle: `${runLine(report.meta)}; one count each; traced variants: the report's tables`,
        referenceLabel: "the floor's count",
        series,
        panels: cells,
      },
    });
  }
  return charts.map(({ id, title, model }) => ({
    id,
    title,
    svg: renderBarChart({ ...model, series: series.filter((s) => usedBy(model.panels, s.id)) }),
  }));
}

const usedBy = (panels, id) => panels.some((p) => p.rows.some((r) => r.series === id));
