/**
 * A smoke run of the instruction counts (bench/instructions.mjs), with tiny counts: mcpkit's
 * server per echo `tools/call` over stdio, in both eras. It prints the counts so that every
 * change's test output shows them; nothing is asserted about their size (tiny counts are not warm
 * enough to compare with the README's). The counted node runs with V8's `--predictable`: with so
 * few calls, a compilation or collection landing in one of the two runs and not the other swung
 * the difference below zero. Skipped, saying so, where valgrind is not installed. About
 * half a minute on an idle 2-core machine; the generous timeout is for a loaded one (valgrind runs
 * code some 50 times slower, and shares the cores).
 */
import { describe, expect, it } from "vitest";
// @ts-expect-error: the bench is plain JavaScript without declarations
import { countInstructions, hasValgrind } from "../../bench/instructions.mjs";

const valgrind = hasValgrind() as boolean;
if (!valgrind) console.warn("valgrind is not installed: the instruction-count smoke is skipped");

describe("instruction counts (callgrind)", () => {
  it("counts mcpkit's stdio server per call in both eras", async (ctx) => {
    ctx.skip(!valgrind, "valgrind is not installed");
    const counts = { warmup: 200, base: 50, calls: 600, predictable: true };
    const count = (era: string): Promise<{ perCall: number }> =>
      countInstructions({ impl: "mcpkit", era, side: "server", transport: "stdio", ...counts });
    const [legacy, modern] = await Promise.all([count("legacy"), count("modern")]);
    console.log(
      `instructions per call, mcpkit stdio server (smoke counts, not warm): 2025-11-25 ${Math.round(legacy.perCall)}, 2026-07-28 ${Math.round(modern.perCall)}`,
    );
    expect(legacy.perCall).toBeGreaterThan(0);
    expect(modern.perCall).toBeGreaterThan(0);
  }, 600_000);
});
