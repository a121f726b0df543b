import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { bodyDeadline, clearBodyDeadline } from "../../src/transports/http/server/adapters/body-deadlines.js";

// Time is the subject: on fake timers each deadline is seen at its own time, whatever the load (on a
// loaded machine a real timer can fire after both are due).
beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("body deadlines on one timer", () => {
  it("expires each deadline at its time, an earlier one added after a later one included", async () => {
    const expired: number[] = [];
    bodyDeadline(120, () => expired.push(120));
    bodyDeadline(30, () => expired.push(30));
    await vi.advanceTimersByTimeAsync(29);
    expect(expired).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(expired).toEqual([30]);
    await vi.advanceTimersByTimeAsync(89);
    expect(expired).toEqual([30]);
    await vi.advanceTimersByTimeAsync(1);
    expect(expired).toEqual([30, 120]);
  });

  it("does not expire a cleared deadline, and still expires the others", async () => {
    const expired: number[] = [];
    const cleared = bodyDeadline(20, () => expired.push(20));
    bodyDeadline(60, () => expired.push(60));
    clearBodyDeadline(cleared);
    await vi.advanceTimersByTimeAsync(60);
    expect(expired).toEqual([60]);
  });
});
