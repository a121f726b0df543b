/**
 * The `instructions` scenario of bench/run.mjs: instructions per echo `tools/call` under callgrind
 * (bench/instructions.mjs), server and client side, stdio and Streamable HTTP, for every variant
 * of the run. Counted once, not per repetition: a server's count repeats to about 1%, a client's
 * to about 5%. Its targets compare variants with one another rather than with the floor: the
 * stateless era against the handshake era of the same build.
 */
import { countInstructions, hasValgrind } from "../instructions.mjs";
import { countFeatureCells, evaluateFeatureTargets, hasFeatureCells } from "./feature-cells.mjs";

/**
 * Calls per measurement: warm-up, the smaller run, and how many more the larger makes. Fewer than
 * bench/instructions.mjs's defaults make the counts of one build move by several percent (the
 * JIT is not done, and a collection falls in one run and not the other).
 */
const COUNTS = {
  full: {
    stdio: { warmup: 20_000, base: 5_000, calls: 20_000 },
    http: { warmup: 5_000, base: 2_000, calls: 5_000 },
  },
  quick: { stdio: { warmup: 300, base: 100, calls: 300 }, http: { warmup: 100, base: 50, calls: 100 } },
};

export const CELLS = [
  { transport: "stdio", side: "server" },
  { transport: "stdio", side: "client" },
  { transport: "http", side: "server" },
  { transport: "http", side: "client" },
];

export const cellKey = ({ transport, side }) => `${transport}-${side}`;

/** Bounds on ratios between variants, per cell: `of` ÷ `to` ≤ `max`. */
export const INSTRUCTION_TARGETS = [
  {
    label: "2026-07-28 ÷ 2025-11-25 (stateless era ÷ handshake era)",
    of: (variant) => variant.impl === "mcpkit" && variant.era === "modern",
    to: (variant, all) =>
      all.find((v) => v.impl === "mcpkit" && v.era === "legacy" && v.root === variant.root),
    max: 1.1,
  },
  {
    label: "÷ floor (HTTP server, both eras)",
    of: (variant) => variant.impl === "mcpkit",
    to: (_, all) => all.find((v) => v.floor),
    cells: ["http-server"],
    max: 1.4,
  },
  {
    // 2%: about what a client's count varies by between two counts of the same build.
    label: "÷ the baseline build (--baseline-ref)",
    of: (variant) => variant.impl === "mcpkit" && !variant.root,
    to: (variant, all) => all.find((v) => v.root && v.impl === "mcpkit" && v.era === variant.era),
    max: 1.02,
  },
];

/**
 * Counts every cell for every variant; resolves with runs shaped like the timed scenarios'
 * (`{ scenario: "instructions", variant, ok, metrics }`), or none, with a reason, without valgrind.
 */
export async function instructionRuns(variants, { quick, log }) {
  if (!hasValgrind())
    return { runs: [], skipped: "valgrind is not installed: instruction counts not measured" };
  const counts = COUNTS[quick ? "quick" : "full"];
  const runs = [];
  for (const variant of variants) {
    const run = { scenario: "instructions", variant: variant.id, rep: 1, position: 1, metrics: {} };
    const t0 = performance.now();
    try {
      for (const cell of CELLS) {
        const { perCall } = await countInstructions({
          impl: variant.impl,
          era: variant.era,
          root: variant.root,
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
    runs.push(run);
  }
  return { runs };
}

/** Every instruction target for the variants measured: `{ label, variant, cell, value, met }`. */
export function evaluateInstructionTargets(variants, runs) {
  const of = (variant) => runs.find((r) => r.variant === variant?.id && r.ok)?.metrics;
  const results = [];
  for (const target of INSTRUCTION_TARGETS) {
    for (const variant of variants.filter(target.of)) {
      const reference = target.to(variant, variants);
      const mine = of(variant);
      const theirs = of(reference);
      if (!reference) continue;
      for (const cell of CELLS.map(cellKey)) {
        if (target.cells && !target.cells.includes(cell)) continue;
        const value = mine && theirs ? mine[cell] / theirs[cell] : Number.NaN;
        results.push({
          label: target.label,
          variant: variant.id,
          reference: reference.id,
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
