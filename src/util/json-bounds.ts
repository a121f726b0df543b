/**
 * Bounds for walking JSON a peer sent (a tool's schema): a recursive walk of a value nested
 * thousands deep overflows the stack, and one of millions of nodes blocks the event loop.
 */

/** How deep and how large a value may be. */
export interface JsonBounds {
  /** Most levels of objects and arrays inside one another. */
  maxDepth: number;
  /** Most values in all (objects, arrays and the primitives in them). */
  maxNodes: number;
}

/** The bounds of a JSON Schema from a peer: far beyond what a real tool's schema needs. */
export const SCHEMA_BOUNDS: JsonBounds = { maxDepth: 100, maxNodes: 100_000 };

/**
 * How `value` exceeds `bounds` ("nests deeper than 100 levels", "has more than 100000 nodes"), or
 * `undefined` when it does not. A loop, not recursion: any value can be measured.
 */
export function boundsProblem(value: unknown, bounds: JsonBounds = SCHEMA_BOUNDS): string | undefined {
  const values: unknown[] = [value];
  const depths: number[] = [1];
  let nodes = 0;
  while (values.length > 0) {
    const next = values.pop();
    const depth = depths.pop()!;
    if (++nodes > bounds.maxNodes) return `has more than ${bounds.maxNodes} nodes`;
    if (typeof next !== "object" || next === null) continue;
    if (depth > bounds.maxDepth) return `nests deeper than ${bounds.maxDepth} levels`;
    for (const key in next) {
      values.push((next as Record<string, unknown>)[key]);
      depths.push(depth + 1);
    }
  }
  return undefined;
}
