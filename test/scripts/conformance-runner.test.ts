import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { groupMembers } from "../helpers/processes.js";

// The runner is plain ESM for Node without a build step; loaded by URL, its exports are untyped here.
const load = (name: string): Promise<any> =>
  import(new URL(`../../scripts/conformance/${name}.mjs`, import.meta.url).href);
const { summarise, formatSummary } = await load("summary");
const { compare } = await load("baseline");
const { runGroup } = await load("processes");
const { cacheDir } = await load("cache");

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "mcpkit-conformance-test-"));
  dirs.push(dir);
  return dir;
}

/** A results folder as the referee writes it: `<scenario>-<timestamp>/checks.json`. */
function results(scenarios: Record<string, { status: string; id?: string; errorMessage?: string }[] | null>) {
  const dir = tempDir();
  for (const [name, checks] of Object.entries(scenarios)) {
    const folder = join(dir, `${name}-2026-01-02T03-04-05-678Z`);
    mkdirSync(folder, { recursive: true });
    if (checks) writeFileSync(join(folder, "checks.json"), JSON.stringify(checks));
  }
  return dir;
}

describe("conformance summary", () => {
  it("gives each scenario its verdict from the results and the referee's log", () => {
    const resultsDir = results({
      "server-ping": [{ status: "SUCCESS" }, { status: "SUCCESS" }],
      "tools-call": [{ status: "SUCCESS" }, { status: "FAILURE", id: "tool-x", errorMessage: "no\n  tool" }],
      crashed: null,
      pending: [{ status: "SUCCESS" }],
    });
    const log = [
      "\u001b[32m✓ ping: 2 passed, 0 failed\u001b[0m",
      "✗ tools-call: 1 passed, 1 failed",
      "- later: skipped",
      "Not scored for 2025-11-25:",
      "  ✓ pending (pending)",
    ].join("\n");
    const scenarios = summarise({
      resultsDir,
      log,
      mode: "server",
      code: 1,
      timedOut: false,
      timeoutS: 1200,
    });
    expect(scenarios.map((s: any) => [s.name, s.status, s.scored])).toEqual([
      ["ping", "PASS", true],
      ["tools-call", "FAIL", true],
      ["later", "SKIP", true],
      ["crashed", "FAIL", true],
      ["pending", "PASS", false],
    ]);
    expect(formatSummary(scenarios).split("\n")).toEqual([
      "PASS  ping  (2 passed, 0 failed)",
      "FAIL  tools-call  (1 passed, 1 failed)",
      "        - tool-x: no tool",
      "SKIP  later",
      "FAIL  crashed  (no results (scenario crashed or never finished))",
      "PASS* pending  (1 passed, 0 failed; not scored: pending)",
      "checks: 4 passed, 2 failed, 0 warnings; scenarios skipped: 1; not scored (marked *): 1",
    ]);
  });

  it("fails a client scenario with warnings", () => {
    const resultsDir = results({ "sse-retry": [{ status: "SUCCESS" }, { status: "WARNING", id: "w" }] });
    const [scenario] = summarise({
      resultsDir,
      log: "",
      mode: "client",
      code: 0,
      timedOut: false,
      timeoutS: 1,
    });
    expect(scenario).toMatchObject({ name: "sse-retry", status: "FAIL", warnings: 1 });
  });

  it("adds a failed <referee> entry when the referee timed out or crashed", () => {
    const resultsDir = results({});
    const timedOut = summarise({
      resultsDir,
      log: "",
      mode: "client",
      code: 143,
      timedOut: true,
      timeoutS: 9,
    });
    expect(timedOut).toEqual([
      expect.objectContaining({
        name: "<referee>",
        status: "FAIL",
        note: expect.stringContaining("after 9s"),
      }),
    ]);
    const crashed = summarise({ resultsDir, log: "", mode: "server", code: 2, timedOut: false, timeoutS: 9 });
    expect(crashed[0]).toMatchObject({ name: "<referee>", status: "FAIL" });
  });
});

describe("conformance baseline", () => {
  it("passes when every failure is expected and every expected one still fails", () => {
    const outcomes = new Map([
      ["a", "PASS"],
      ["auth/x", "FAIL"],
    ]);
    expect(compare(outcomes, new Set(["auth/x"]))).toMatchObject({ ok: true, passed: 1, failed: ["auth/x"] });
  });

  it("fails on a new failure, a skipped scenario, an entry that passes now, and no scenarios", () => {
    const outcomes = new Map([
      ["a", "FAIL"],
      ["b", "SKIP"],
      ["c", "PASS"],
    ]);
    expect(compare(outcomes, new Set(["c"]))).toMatchObject({
      ok: false,
      unexpected: ["a", "b"],
      fixed: ["c"],
    });
    expect(compare(new Map(), new Set()).ok).toBe(false);
  });
});

describe("conformance processes", () => {
  it("stops the whole process group at the timeout", async () => {
    const dir = tempDir();
    const pidFile = join(dir, "pid");
    const { code, timedOut } = await runGroup("sh", ["-c", `sleep 600 & echo $$ > ${pidFile}; wait`], {
      logFile: join(dir, "log"),
      timeoutS: 1,
      killAfterS: 1,
    });
    expect(timedOut).toBe(true);
    expect(code).not.toBe(0);
    expect(groupMembers(Number(readFileSync(pidFile, "utf8")))).toEqual([]);
  });

  it("stops what a finished command left running", async () => {
    const dir = tempDir();
    const pidFile = join(dir, "pid");
    const { code, timedOut } = await runGroup("sh", ["-c", `echo $$ > ${pidFile}; sleep 600 & exit 3`], {
      logFile: join(dir, "log"),
      timeoutS: 600,
    });
    expect({ code, timedOut }).toEqual({ code: 3, timedOut: false });
    expect(groupMembers(Number(readFileSync(pidFile, "utf8")))).toEqual([]);
  });

  it("keeps its cache where MCP_CONFORMANCE_CACHE says, else under XDG_CACHE_HOME or ~/.cache", () => {
    expect(cacheDir({ MCP_CONFORMANCE_CACHE: "/c", XDG_CACHE_HOME: "/x" })).toBe("/c");
    expect(cacheDir({ XDG_CACHE_HOME: "/x" })).toBe(join("/x", "mcp-conformance"));
    expect(cacheDir({})).toMatch(/[/\\]\.cache[/\\]mcp-conformance$/);
  });
});
