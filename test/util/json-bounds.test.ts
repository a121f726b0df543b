/**
 * `boundsProblem` stops at its node cap without first listing every element of a long array:
 * observed through a proxy that counts what the walk asks of the array.
 */
import { describe, expect, it } from "vitest";
import { boundsProblem } from "../../src/util/json-bounds.js";

/** `array` behind a proxy that counts element reads and notes whether its keys were listed. */
function watched(array: unknown[]) {
  const seen = { reads: 0, listed: false };
  const proxy = new Proxy(array, {
    ownKeys(target) {
      seen.listed = true;
      return Reflect.ownKeys(target);
    },
    get(target, key, receiver) {
      if (typeof key === "string" && /^\d+$/.test(key)) seen.reads++;
      return Reflect.get(target, key, receiver);
    },
  });
  return { proxy, seen };
}

describe("boundsProblem", () => {
  it("refuses a long array after at most maxNodes reads, never listing its indices", () => {
    const { proxy, seen } = watched(Array.from({ length: 200_000 }, (_, i) => i));
    expect(boundsProblem({ enum: proxy }, { maxDepth: 10, maxNodes: 1000 })).toBe("has more than 1000 nodes");
    expect(seen.listed).toBe(false);
    expect(seen.reads).toBeLessThanOrEqual(1000);
  });

  it("still measures arrays inside objects and objects inside arrays", () => {
    const bounds = { maxDepth: 3, maxNodes: 100 };
    expect(boundsProblem({ a: [{ b: 1 }, [2]] }, bounds)).toBeUndefined();
    expect(boundsProblem({ a: [{ b: [1] }] }, bounds)).toBe("nests deeper than 3 levels");
    expect(boundsProblem([Array.from({ length: 100 }, () => 0)], bounds)).toBe("has more than 100 nodes");
  });
});
