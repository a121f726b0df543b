/** Order statistics over a handful of repetitions. */

/** The q-quantile (0 ≤ q ≤ 1) by linear interpolation between order statistics. */
export function quantile(values, q) {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  const high = Math.ceil(at);
  return sorted[low] + (sorted[high] - sorted[low]) * (at - low);
}

export const median = (values) => quantile(values, 0.5);

/** Median, quartiles and extremes of the finite values. */
export function summarize(values) {
  const finite = values.filter((v) => Number.isFinite(v));
  return {
    n: finite.length,
    median: median(finite),
    q1: quantile(finite, 0.25),
    q3: quantile(finite, 0.75),
    min: finite.length ? Math.min(...finite) : Number.NaN,
    max: finite.length ? Math.max(...finite) : Number.NaN,
  };
}
