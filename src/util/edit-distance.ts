/**
 * The edit distance of `a` and `b` (insertions, deletions, substitutions and swaps of neighbours),
 * or `Infinity` once it is sure to exceed `max`.
 */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return Number.POSITIVE_INFINITY;
  let before = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d = Math.min(d, before[j - 2]! + 1);
      current.push(d);
      best = Math.min(best, d);
    }
    if (best > max) return Number.POSITIVE_INFINITY;
    before = previous;
    previous = current;
  }
  const distance = previous[b.length]!;
  return distance > max ? Number.POSITIVE_INFINITY : distance;
}
