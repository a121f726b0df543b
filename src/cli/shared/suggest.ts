/** "Did you mean …?" for a mistyped tool, prompt, resource, server or revision name. */

/** Names longer than this are not compared: the work stays bounded whatever a server lists. */
const MAX_LENGTH = 256;

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

/**
 * The candidate closest to `name`: the same name in other case, else the nearest within a third of
 * its length (at least 1, at most 4 edits), else one that has `name` as a prefix. `undefined` when
 * none is close.
 */
export function closest(name: string, candidates: Iterable<string>): string | undefined {
  if (name.length === 0 || name.length > MAX_LENGTH) return undefined;
  const lower = name.toLowerCase();
  const max = Math.min(4, Math.max(1, Math.floor(name.length / 3)));
  let best: string | undefined;
  let bestDistance = max + 1;
  let prefixed: string | undefined;
  for (const candidate of candidates) {
    if (candidate === name || candidate.length > MAX_LENGTH) continue;
    const other = candidate.toLowerCase();
    if (other === lower) return candidate;
    const distance = editDistance(lower, other, max);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
    if (prefixed === undefined && name.length >= 3 && other.startsWith(lower)) prefixed = candidate;
  }
  return best ?? prefixed;
}

/** `; did you mean "echo"?` when a candidate is close to `name`, else the empty string. */
export function didYouMean(name: string, candidates: Iterable<string>): string {
  const match = closest(name, candidates);
  return match === undefined ? "" : `; did you mean "${match}"?`;
}
