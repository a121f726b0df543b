/**
 * `TransientMap` and `TransientSet` behave as a `Map` and a `Set` while entries come and go,
 * including emptying, iterating while deleting, and clearing.
 */
import { describe, expect, it } from "vitest";
import { TransientMap, TransientSet } from "../../src/util/transient.js";

describe("TransientMap", () => {
  it("keeps, finds and forgets entries as a Map does", () => {
    const map = new TransientMap<number, string>();
    expect(map.set(1, "a").set(2, "b").size).toBe(2);
    expect(map.get(1)).toBe("a");
    expect(map.delete(3)).toBe(false);
    expect(map.delete(1)).toBe(true);
    expect(map.has(1)).toBe(false);
    // The last entry: a key it does not hold leaves it as it is.
    expect(map.delete(1)).toBe(false);
    expect(map.size).toBe(1);
    expect(map.delete(2)).toBe(true);
    expect(map.size).toBe(0);
    expect(map.get(2)).toBeUndefined();
    map.set(4, "d");
    expect([...map]).toEqual([[4, "d"]]);
    expect([...map.keys()]).toEqual([4]);
    expect([...map.values()]).toEqual(["d"]);
    map.clear();
    expect(map.size).toBe(0);
  });

  it("lets a loop delete every entry it visits, the last included", () => {
    const map = new TransientMap<string, number>();
    for (const key of ["a", "b", "c"]) map.set(key, key.length);
    const seen: string[] = [];
    for (const [key] of map) {
      seen.push(key);
      map.delete(key);
    }
    expect(seen).toEqual(["a", "b", "c"]);
    expect(map.size).toBe(0);
  });
});

describe("TransientSet", () => {
  it("keeps and forgets values as a Set does", () => {
    const set = new TransientSet<object>();
    const a = {};
    const b = {};
    set.add(a).add(b).add(a);
    expect(set.size).toBe(2);
    expect(set.delete(a)).toBe(true);
    expect(set.delete(a)).toBe(false);
    expect(set.has(b)).toBe(true);
    expect(set.delete(b)).toBe(true);
    expect(set.size).toBe(0);
    expect(set.has(b)).toBe(false);
    set.add(b);
    expect([...set]).toEqual([b]);
    expect([...set.values()]).toEqual([b]);
    set.clear();
    expect(set.size).toBe(0);
  });
});

describe("keys compared as a Map compares them", () => {
  it("finds NaN and forgets it", () => {
    const map = new TransientMap<number, string>();
    map.set(Number.NaN, "nan").set(1, "one");
    expect(map.delete(Number.NaN)).toBe(true);
    expect([...map.keys()]).toEqual([1]);
    const set = new TransientSet<number>();
    set.add(Number.NaN).add(2);
    expect(set.delete(Number.NaN)).toBe(true);
    expect([...set]).toEqual([2]);
  });
});
