/**
 * A smoke run of the benchmark harness (bench/run.mjs), with tiny counts, so that it keeps working:
 * it runs the floor and mcpkit in both eras over stdio and HTTP and a small listing, and writes its
 * report. Its numbers mean nothing here and nothing is asserted about speed.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const out = mkdtempSync(join(tmpdir(), "mcpkit-bench-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe("the benchmark harness", () => {
  it("measures the floor and mcpkit in both eras and writes a Markdown and a JSON report", () => {
    const prefix = join(out, "smoke");
    const run = spawnSync(
      process.execPath,
      [
        "bench/run.mjs",
        "--quick",
        "--reps",
        "1",
        "--scale",
        "0.2",
        "--pin",
        "none",
        "--scenarios",
        "stdio-seq,http-64,list-10k-json",
        "--impls",
        "mcpkit,mcpkit@modern",
        "--out",
        prefix,
      ],
      { cwd: ROOT, encoding: "utf8", timeout: 120_000 },
    );
    expect(run.stderr).not.toMatch(/failed/i);
    expect(run.status).toBe(0);
    const report = JSON.parse(readFileSync(`${prefix}.json`, "utf8")) as {
      runs: { scenario: string; variant: string; ok: boolean; metrics?: Record<string, number> }[];
    };
    const measured = report.runs.map((r) => `${r.scenario} ${r.variant} ${r.ok}`).sort();
    expect(measured).toEqual(
      ["stdio-seq", "http-64", "list-10k-json"]
        .flatMap((scenario) => ["floor", "mcpkit", "mcpkit@modern"].map((v) => `${scenario} ${v} true`))
        .sort(),
    );
    // What the schema objects take, and what a library adds beyond them, can come out at zero or
    // below for small plain schemas (a collection frees more than they add); the rest is positive.
    const mayBeZero = new Set(["schemasHeapMiB", "ownHeapMiB", "ownRssMiB"]);
    for (const r of report.runs) {
      for (const [key, value] of Object.entries(r.metrics ?? {})) {
        expect(Number.isFinite(value)).toBe(true);
        if (!mayBeZero.has(key)) expect(value).toBeGreaterThan(0);
      }
    }
    const markdown = readFileSync(`${prefix}.md`, "utf8");
    expect(markdown).toContain("## Targets");
    expect(markdown).toContain("### list-10k-json");
  }, 150_000);
});
