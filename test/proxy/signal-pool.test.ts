/**
 * The proxy's pool of abort controllers: a controller comes back only when no one can see it
 * abort again (not aborted, no listener left), so a later call's cancellation never reaches an
 * earlier call's code.
 */
import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { SignalPool } from "../../src/proxy/signal-pool.js";

describe("SignalPool", () => {
  it("hands out a given-back controller again", () => {
    const pool = new SignalPool();
    const first = pool.take();
    pool.give(first);
    expect(pool.take()).toBe(first);
    expect(pool.take()).not.toBe(first);
  });

  it("drops a controller that aborted or that someone still listens to", () => {
    const pool = new SignalPool();
    const aborted = pool.take();
    aborted.abort(new Error("cancelled"));
    pool.give(aborted);
    const listened = pool.take();
    const heard: unknown[] = [];
    listened.signal.addEventListener("abort", () => heard.push(listened.signal.reason));
    pool.give(listened);
    const next = pool.take();
    expect(next).not.toBe(aborted);
    expect(next).not.toBe(listened);
    expect(next.signal.aborted).toBe(false);
    next.abort(new Error("a later call"));
    expect(heard).toEqual([]);
  });

  it("keeps a listener of its own on every signal it hands out, and reuses one whose other listeners left", () => {
    const pool = new SignalPool();
    const controller = pool.take();
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(1);
    const listener = () => {};
    controller.signal.addEventListener("abort", listener);
    controller.signal.removeEventListener("abort", listener);
    pool.give(controller);
    expect(pool.take()).toBe(controller);
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(1);
  });

  it("keeps at most 64", () => {
    const pool = new SignalPool();
    const taken = Array.from({ length: 70 }, () => pool.take());
    for (const controller of taken) pool.give(controller);
    const again = new Set(Array.from({ length: 70 }, () => pool.take()));
    expect([...again].filter((controller) => taken.includes(controller))).toHaveLength(64);
  });
});
