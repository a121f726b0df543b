import { describe, expect, it } from "vitest";
import { isoTime } from "../../src/util/iso-time.js";

describe("isoTime", () => {
  it("writes what Date.prototype.toISOString writes", () => {
    const times = [
      0,
      Date.UTC(2026, 11, 2, 3, 4, 5, 6),
      Date.UTC(2026, 0, 1, 0, 0, 0, 0),
      Date.UTC(1999, 11, 31, 23, 59, 59, 999),
      Date.UTC(9999, 11, 31, 23, 59, 59, 999),
      Date.UTC(10000, 0, 1),
      -1,
      -62198755200000, // the year 0
      -62198755200001, // the year -1
      Date.UTC(999, 5, 5, 5, 5, 5, 50),
      Date.now(),
    ];
    for (let i = 0; i < 2000; i++) times.push(Math.floor(Math.random() * 4e12) - 1e12);
    // Twice: the second time from the kept values.
    for (const ms of [...times, ...times]) expect(isoTime(ms)).toBe(new Date(ms).toISOString());
  });

  it("throws for an invalid time, as toISOString does", () => {
    expect(() => isoTime(Number.NaN)).toThrow(RangeError);
    expect(() => isoTime(8.64e15 + 1)).toThrow(RangeError);
  });
});
