import { describe, expect, it } from "vitest";
import { bodyDeadline, clearBodyDeadline } from "../../src/transports/http/server/adapters/body-deadlines.js";

const expiry = (timeout: number, expired: number[]) =>
  new Promise<void>((done) =>
    bodyDeadline(timeout, () => {
      expired.push(timeout);
      done();
    }),
  );

describe("body deadlines on one timer", () => {
  it("expires each deadline in order, an earlier one added after a later one included", async () => {
    const expired: number[] = [];
    const late = expiry(120, expired);
    const early = expiry(30, expired);
    await Promise.all([late, early]);
    expect(expired).toEqual([30, 120]);
  });

  it("does not expire a cleared deadline, and still expires the others", async () => {
    const expired: number[] = [];
    const cleared = bodyDeadline(20, () => expired.push(20));
    const kept = expiry(60, expired);
    clearBodyDeadline(cleared);
    await kept;
    expect(expired).toEqual([60]);
  });
});
