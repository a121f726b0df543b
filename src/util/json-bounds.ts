/**
 * Bounds for walking JSON a peer sent (a tool's schema): a recursive walk of a value nested
 * thousands deep overflows the stack, and one of millions of nodes blocks the event loop.
 */

/** How deep and how large a value may be. */
interface JsonBounds {
  /** Most levels of objects and arrays inside one another. */
  maxDepth: number;
  /** Most values in all (objects, arrays and the primitives in them). */
  maxNodes: number;
}

/** The bounds of a JSON Schema from a peer: far beyond what a real tool's schema needs. */
export const SCHEMA_BOUNDS: JsonBounds = { maxDepth: 100, maxNodes: 100_000 };

/** What `boundsProblem` says of a value with more than `bounds.maxNodes` values. */
export const tooManyNodes = (bounds: JsonBounds) => `has more than ${bounds.maxNodes} nodes`;
/** What it says of one nested deeper than `bounds.maxDepth`. */
export const tooDeep = (bounds: JsonBounds) => `nests deeper than ${bounds.maxDepth} levels`;

/**
 * How `value` exceeds `bounds` ("nests deeper than 100 levels", "has more than 100000 nodes"), or
 * `undefined` when it does not. A loop, not recursion: any value can be measured. Primitives are
 * counted where they are met; only objects and arrays go on the stack. An array is read by index,
 * so a long one costs no more than `maxNodes` reads; an object's keys are listed whole (there is no
 * other way to list them), which costs about what parsing them did.
 */
export function boundsProblem(value: unknown, bounds: JsonBounds = SCHEMA_BOUNDS): string | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const values: object[] = [value];
  const depths: number[] = [1];
  let nodes = 1;
  while (values.length > 0) {
    const next = values.pop() as Record<string, unknown>;
    const depth = depths.pop()!;
    if (depth > bounds.maxDepth) return tooDeep(bounds);
    const take = (member: unknown) => {
      if (typeof member === "object" && member !== null) {
        values.push(member);
        depths.push(depth + 1);
      }
    };
    if (Array.isArray(next)) {
      // By index: `for…in` lists every index of an array before the first is counted.
      for (let i = 0; i < next.length; i++) {
        if (++nodes > bounds.maxNodes) return tooManyNodes(bounds);
        take(next[i]);
      }
      continue;
    }
    for (const key in next) {
      if (++nodes > bounds.maxNodes) return tooManyNodes(bounds);
      take(next[key]);
    }
  }
  return undefined;
}
