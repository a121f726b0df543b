/**
 * The instruction targets between variants (bench/lib/instructions-suite.mjs), on made-up counts:
 * the tracing rows compare each traced mcpkit variant with its era's plain one, alone and with the
 * OpenTelemetry SDK's own cost added.
 */
import { describe, expect, it } from "vitest";
// @ts-expect-error: the bench is plain JavaScript without declarations
import { evaluateInstructionTargets, tracingVariants } from "../../bench/lib/instructions-suite.mjs";

type Variant = { id: string; impl?: string; era?: string; floor?: boolean };
type Row = { label: string; variant: string; reference: string; cell: string; value: number; met: boolean };

const cells = (value: number) => ({
  "stdio-server": value,
  "stdio-client": value,
  "http-server": value,
  "http-client": value,
});

describe("instruction targets", () => {
  it("adds traced variants and the SDK's floor, and bounds tracing against the plain call", () => {
    const base: Variant[] = [
      { id: "floor", impl: "floor", era: "legacy", floor: true },
      { id: "mcpkit", impl: "mcpkit", era: "legacy" },
      { id: "mcpkit@modern", impl: "mcpkit", era: "modern" },
    ];
    const added = tracingVariants(base) as Variant[];
    expect(added.map((v) => v.id)).toEqual(["mcpkit+otel", "mcpkit@modern+otel", "otel-sdk"]);
    const counts: Record<string, number> = {
      floor: 30_000,
      mcpkit: 40_000,
      "mcpkit@modern": 42_000,
      "mcpkit+otel": 50_000,
      "mcpkit@modern+otel": 60_000,
      "otel-sdk": 10_000,
    };
    const runs = Object.entries(counts).map(([variant, value]) => ({
      scenario: "instructions",
      variant,
      ok: true,
      metrics: cells(value),
    }));
    const rows = evaluateInstructionTargets([...base, ...added], runs) as Row[];
    const row = (label: string, variant: string) =>
      rows.find((r) => r.label.startsWith(label) && r.variant === variant && r.cell === "stdio-server");
    expect(row("mcpkit/otel ÷ plain", "mcpkit+otel")).toMatchObject({ value: 1.25, met: true });
    expect(row("mcpkit/otel ÷ plain", "mcpkit@modern+otel")).toMatchObject({
      reference: "mcpkit@modern",
      met: false,
    });
    expect(row("mcpkit/otel ÷ (plain + the SDK alone)", "mcpkit+otel")).toMatchObject({
      reference: "mcpkit + otel-sdk",
      value: 1,
      met: true,
    });
    // The era and floor rows stay about plain calls.
    expect(rows.some((r) => r.label.startsWith("2026-07-28") && r.variant.endsWith("+otel"))).toBe(false);
    expect(rows.some((r) => r.label.startsWith("÷ floor") && r.variant.endsWith("+otel"))).toBe(false);
    // Feature cells are counted untraced: a traced variant has none to divide by its traced call.
    const featureRows = rows.filter(
      (r) => r.cell.startsWith("http-server-") || r.cell.startsWith("stdio-server-"),
    );
    expect(new Set(featureRows.map((r) => r.variant))).toEqual(new Set(["mcpkit", "mcpkit@modern"]));
  });
});
