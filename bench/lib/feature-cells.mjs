/**
 * Instruction counts of what a server adds to a call, each held to a bound against a plain echo
 * `tools/call` cell of the same variant (bench/lib/instructions-suite.mjs): a request carrying an
 * OAuth access token, three no-op middlewares, and a task. mcpkit's server only; counted by
 * bench/instructions.mjs like the other cells.
 */

/**
 * `options` are passed to `countInstructions`; `base` is the plain cell the count is divided by.
 * Bounds:
 * - OAuth ≤ 1.2×: a JWT access token checked against the issuer's JWKS, fetched once and cached,
 *   is one ES256 signature check and a few claims per request; within a fifth of a call.
 * - 3 no-op middlewares ≤ 1.05×: a middleware that only calls `next()` must cost next to nothing.
 * - a task ≤ 3×: a task is three requests where a call is one (the `tools/call` that creates it,
 *   a `tasks/get` that sees it completed and `tasks/result`; statelessly the completed
 *   `tasks/get` carries the result, so two), each no heavier than an echo call, the task's record
 *   and its store included.
 */
export const FEATURE_CELLS = [
  {
    key: "http-server-oauth",
    label: "an OAuth-protected request (JWT, cached JWKS) ÷ an unprotected one",
    base: "http-server",
    max: 1.2,
    options: { transport: "http", side: "server", oauth: true },
  },
  {
    key: "stdio-server-noop3",
    label: "3 no-op middlewares ÷ none",
    base: "stdio-server",
    max: 1.05,
    options: { transport: "stdio", side: "server", env: { MCPKIT_BENCH_MIDDLEWARE: "noop3" } },
  },
  {
    key: "http-server-noop3",
    label: "3 no-op middlewares ÷ none",
    base: "http-server",
    max: 1.05,
    options: { transport: "http", side: "server", env: { MCPKIT_BENCH_MIDDLEWARE: "noop3" } },
  },
  {
    key: "http-server-task",
    label: "a task created, polled to completion and fetched ÷ one echo call",
    base: "http-server",
    max: 3,
    perCallLabel: "per task",
    options: { transport: "http", side: "server", tasks: true },
  },
];

/**
 * Fewer tasks than calls: the default task store holds 10,000 tasks (their ttl is an hour), and
 * the larger count's process creates warm-up + base + calls of them.
 */
export const TASK_COUNTS = {
  full: { warmup: 2_000, base: 1_000, calls: 4_000 },
  quick: { warmup: 50, base: 20, calls: 50 },
};

/**
 * Whether a variant's server is counted with these cells: mcpkit's untraced variants. A cell is
 * counted without the variant's middleware (noop3 is a middleware of its own), so a traced
 * variant's cells would be untraced counts divided by its traced plain cell.
 */
export const hasFeatureCells = (variant) => variant.impl === "mcpkit" && !variant.middleware;

/**
 * Counts every feature cell of a variant with `count` (bench/instructions.mjs's
 * `countInstructions`), `counts` per transport as for the plain cells; adds them to `metrics`.
 */
export async function countFeatureCells(variant, { quick, counts, count, metrics, log }) {
  for (const cell of FEATURE_CELLS) {
    const calls = cell.options.tasks ? TASK_COUNTS[quick ? "quick" : "full"] : counts[cell.options.transport];
    const { perCall } = await count({
      impl: variant.impl,
      era: variant.era,
      root: variant.root,
      ...cell.options,
      ...calls,
    });
    metrics[cell.key] = perCall;
    log(`[instructions] ${variant.id.padEnd(14)} ${cell.key.padEnd(12)} ${Math.round(perCall)}`);
  }
}

/** Every feature target: `{ label, variant, reference, cell, bound, value, met }`. */
export function evaluateFeatureTargets(variants, runs) {
  const results = [];
  for (const variant of variants.filter(hasFeatureCells)) {
    const metrics = runs.find((r) => r.variant === variant.id && r.ok)?.metrics;
    for (const cell of FEATURE_CELLS) {
      const value = metrics ? metrics[cell.key] / metrics[cell.base] : Number.NaN;
      results.push({
        label: cell.label,
        variant: variant.id,
        reference: cell.base,
        cell: cell.key,
        bound: `≤ ${cell.max}×`,
        value: Number.isFinite(value) ? value : null,
        met: Number.isFinite(value) ? value <= cell.max : null,
      });
    }
  }
  return results;
}
