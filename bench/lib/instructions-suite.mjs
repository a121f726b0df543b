/**
 * The `instructions` scenario of bench/run.mjs: instructions per echo `tools/call` under callgrind
 * (bench/instructions.mjs), server and client side, stdio and Streamable HTTP, for every variant
 * of the run. Counted once, not per repetition: a server's count repeats to about 1%, a client's
 * to about 5%. Its targets compare variants with one another rather than with the floor: the
 * stateless era against the handshake era of the same build, and a traced call against a plain one.
 * Beside the run's variants it counts its own (`tracingVariants`): mcpkit traced with mcpkit/otel
 * in each era, and the OpenTelemetry SDK's floor under a traced call.
 */
import { countInstructions, hasValgrind } from "../instructions.mjs";
import { countFeatureCells, evaluateFeatureTargets, hasFeatureCells } from "./feature-cells.mjs";

/**
 * Calls per measurement: warm-up, the smaller run, and how many more the larger makes. Half of
 * bench/instructions.mjs's defaults, so that the whole suite takes under an hour on 2 cores
 * (callgrind runs about 20M instructions a second here); a cell's count then moves by a few
 * percent from run to run (the JIT is not quite done, and a collection falls in one run and not
 * the other). For a figure to the percent, count the cell alone with bench/instructions.mjs.
 */
const COUNTS = {
  full: {
    stdio: { warmup: 10_000, base: 2_000, calls: 10_000 },
    http: { warmup: 3_000, base: 1_000, calls: 3_000 },
  },
  quick: { stdio: { warmup: 300, base: 100, calls: 300 }, http: { warmup: 100, base: 50, calls: 100 } },
};

/**
 * How many times fewer calls a variant counts in a full run, after the same warm-up: callgrind's
 * time goes with the instructions counted, and the SDKs' calls run 4–14× mcpkit's, a traced call
 * about 4×. A traced variant counts half, not a quarter: with 750 HTTP calls, one count of the
 * traced 2025-11-25 server came out at 39.7k, below the plain server's 134.2k (counted alone
 * again at the same counts: 272k), something that happened in one of its two runs and not the
 * other outweighing the calls; its cells also have no feature cells to count. The warm-up is
 * never cut: with an eighth of it the SDK v1 server counted 381k instructions per call against
 * 141k warm, its code not yet optimized.
 */
const shareOf = (variant) => (variant.impl?.startsWith("sdk-") ? 4 : variant.middleware === "otel" ? 2 : 1);

/** The counts for one variant: its calls scaled down by its share in a full run. */
function countsOf(variant, counts, quick) {
  const share = shareOf(variant);
  if (quick || share === 1) return counts;
  const scaled = ({ warmup, base, calls }) => ({
    warmup,
    base: Math.round(base / share),
    calls: Math.round(calls / share),
  });
  return { stdio: scaled(counts.stdio), http: scaled(counts.http) };
}

export const CELLS = [
  { transport: "stdio", side: "server" },
  { transport: "stdio", side: "client" },
  { transport: "http", side: "server" },
  { transport: "http", side: "client" },
];

export const cellKey = ({ transport, side }) => `${transport}-${side}`;

/**
 * The variants this suite adds for tracing: each mcpkit variant of this checkout traced with
 * mcpkit/otel (`+otel`: the SDK's BatchSpanProcessor, every span sampled, both histograms;
 * bench/lib/middleware.mjs), and the SDK's own cost under one traced call (a span with the
 * conventions' attributes and a histogram value, bench/lib/span-floor.mjs), counted once and shown
 * in every cell: what no instrumentation of the SDK can go below.
 */
export function tracingVariants(variants) {
  const plain = variants.filter((v) => v.impl === "mcpkit" && !v.root && !v.middleware);
  if (plain.length === 0) return [];
  return [
    ...plain.map((v) => ({
      ...v,
      id: `${v.id}+otel`,
      label: `${v.label} + mcpkit/otel`,
      middleware: "otel",
    })),
    { id: "otel-sdk", label: "OpenTelemetry SDK alone (a span and a histogram value)", sdkFloor: true },
  ];
}

/** The untraced variant of a traced one. */
const untraced = (variant, all) =>
  all.find((v) => v.impl === "mcpkit" && !v.root && !v.middleware && v.era === variant.era);

/**
 * Bounds on ratios between variants, per cell: `of` ÷ `to` ≤ `max`; with `plus`, `of` ÷ (`to` +
 * `plus`).
 */
export const INSTRUCTION_TARGETS = [
  {
    label: "2026-07-28 ÷ 2025-11-25 (stateless era ÷ handshake era)",
    of: (variant) => variant.impl === "mcpkit" && variant.era === "modern" && !variant.middleware,
    to: (variant, all) =>
      all.find((v) => v.impl === "mcpkit" && v.era === "legacy" && v.root === variant.root && !v.middleware),
    max: 1.1,
  },
  {
    label: "÷ floor (HTTP server, both eras)",
    of: (variant) => variant.impl === "mcpkit" && !variant.middleware,
    to: (_, all) => all.find((v) => v.floor),
    cells: ["http-server"],
    max: 1.4,
  },
  {
    label: "mcpkit/otel ÷ plain (tracing on, both eras)",
    of: (variant) => variant.middleware === "otel",
    to: untraced,
    max: 1.3,
  },
  {
    // What of a traced call is mcpkit's: 10% over the plain call plus what the SDK itself costs.
    label: "mcpkit/otel ÷ (plain + the SDK alone)",
    of: (variant) => variant.middleware === "otel",
    to: untraced,
    plus: (_, all) => all.find((v) => v.sdkFloor),
    max: 1.1,
  },
  {
    // 2%: about what a client's count varies by between two counts of the same build.
    label: "÷ the baseline build (--baseline-ref)",
    of: (variant) => variant.impl === "mcpkit" && !variant.root && !variant.middleware,
    to: (variant, all) => all.find((v) => v.root && v.impl === "mcpkit" && v.era === variant.era),
    max: 1.02,
  },
];

/**
 * Counts every cell for every variant and those `tracingVariants` adds, `jobs` variants at a time
 * (callgrind counts instructions, not time, so counts side by side do not disturb one another);
 * resolves with runs shaped like the timed scenarios' (`{ scenario: "instructions", variant, ok,
 * metrics }`) in the order of the variants, and the added variants, or no runs, with a reason,
 * without valgrind.
 */
export async function instructionRuns(variants, { quick, log, jobs = 1 }) {
  if (!hasValgrind())
    return { runs: [], variants: [], skipped: "valgrind is not installed: instruction counts not measured" };
  const full = COUNTS[quick ? "quick" : "full"];
  const added = tracingVariants(variants);
  const all = [...variants, ...added];
  // Each worker takes the next variant; a run goes in its variant's slot, whichever ends first.
  const runs = new Array(all.length);
  let next = 0;
  const worker = async () => {
    while (next < all.length) {
      const index = next++;
      runs[index] = await countVariant(all[index], { full, quick, log });
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, all.length) }, worker));
  return { runs, variants: added };
}

/** One variant's run: its cells one after another, then its feature cells. */
async function countVariant(variant, { full, quick, log }) {
  const run = { scenario: "instructions", variant: variant.id, rep: 1, position: 1, metrics: {} };
  const t0 = performance.now();
  const counts = countsOf(variant, full, quick);
  try {
    let sdkFloor;
    for (const cell of CELLS) {
      // The SDK's floor is one loop, whatever the cell.
      if (variant.sdkFloor)
        sdkFloor ??= await countInstructions({ impl: "mcpkit", side: "sdk-call", ...counts.stdio });
      const { perCall } = variant.sdkFloor
        ? sdkFloor
        : await countInstructions({
            impl: variant.impl,
            era: variant.era,
            root: variant.root,
            middleware: variant.middleware,
            ...cell,
            ...counts[cell.transport],
          });
      run.metrics[cellKey(cell)] = perCall;
      log(`[instructions] ${variant.id.padEnd(14)} ${cellKey(cell).padEnd(12)} ${Math.round(perCall)}`);
    }
    if (hasFeatureCells(variant))
      await countFeatureCells(variant, {
        quick,
        counts,
        count: countInstructions,
        metrics: run.metrics,
        log,
      });
    run.ok = true;
  } catch (error) {
    run.ok = false;
    run.error = error instanceof Error ? error.message : String(error);
    log(`[instructions] ${variant.id} FAILED: ${run.error.split("\n")[0].slice(0, 300)}`);
  }
  run.wallMs = performance.now() - t0;
  return run;
}

/** Every instruction target for the variants measured: `{ label, variant, cell, value, met }`. */
export function evaluateInstructionTargets(variants, runs) {
  const of = (variant) => runs.find((r) => r.variant === variant?.id && r.ok)?.metrics;
  const results = [];
  for (const target of INSTRUCTION_TARGETS) {
    for (const variant of variants.filter(target.of)) {
      const reference = target.to(variant, variants);
      const added = target.plus?.(variant, variants);
      if (!reference || (target.plus && !added)) continue;
      const mine = of(variant);
      const theirs = of(reference);
      const more = added ? of(added) : {};
      for (const cell of CELLS.map(cellKey)) {
        if (target.cells && !target.cells.includes(cell)) continue;
        const value = mine && theirs && more ? mine[cell] / (theirs[cell] + (more[cell] ?? 0)) : Number.NaN;
        results.push({
          label: target.label,
          variant: variant.id,
          reference: added ? `${reference.id} + ${added.id}` : reference.id,
          cell,
          bound: `≤ ${target.max}×`,
          value: Number.isFinite(value) ? value : null,
          met: Number.isFinite(value) ? value <= target.max : null,
        });
      }
    }
  }
  results.push(...evaluateFeatureTargets(variants, runs));
  return results;
}
