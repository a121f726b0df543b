/** The audit log's hash chain: continuing a log, refusing one that was cut, and keyed chains. */
import { mkdtemp, readFile, rm, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AuditLog, type AuditRecord, GENESIS, hashLine, verifyAuditLog } from "../../src/proxy/index.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "mcpkit-audit-"));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const record = (tool: string): AuditRecord => ({
  time: new Date().toISOString(),
  server: "s",
  tool,
  argsDigest: "0".repeat(64),
  outcome: "ok",
  durationMs: 1,
});

async function write(path: string, tools: string[], key?: string): Promise<void> {
  const log = await AuditLog.open(path, key === undefined ? {} : { key });
  await Promise.all(tools.map((tool) => log.write(record(tool))));
  await log.close();
}

describe("AuditLog", () => {
  it("chains each line to the one before, and a reopened log goes on with the chain", async () => {
    const path = join(dir, "a.jsonl");
    await write(path, ["one", "two"]);
    await write(path, ["three"]);
    const lines = (await readFile(path, "utf8")).trim().split("\n");
    const parsed = lines.map((line) => JSON.parse(line));
    expect(parsed.map((line) => [line.seq, line.tool])).toEqual([
      [1, "one"],
      [2, "two"],
      [3, "three"],
    ]);
    expect(parsed[0].prev).toBe(GENESIS);
    expect(parsed[2].prev).toBe(hashLine(lines[1]!));
    expect(JSON.parse(await readFile(`${path}.head`, "utf8"))).toEqual({
      lines: 3,
      hash: hashLine(lines[2]!),
    });
    expect(await verifyAuditLog(path)).toMatchObject({ ok: true, lines: 3, headChecked: true });
  });

  it("refuses to go on with a log cut behind its head's back, so the cut stays visible", async () => {
    const path = join(dir, "b.jsonl");
    await write(path, ["one", "two"]);
    const first = (await readFile(path, "utf8")).split("\n")[0]!;
    await truncate(path, Buffer.byteLength(first) + 1);
    await expect(AuditLog.open(path)).rejects.toThrow(/does not match its head file/);
    expect(await verifyAuditLog(path)).toMatchObject({ ok: false, badLine: 2 });
  });

  it("without a head file, a cut at the end passes and the message says it cannot be seen", async () => {
    const path = join(dir, "c.jsonl");
    await write(path, ["one"]);
    await rm(`${path}.head`);
    const result = await verifyAuditLog(path);
    expect(result).toMatchObject({ ok: true, headChecked: false });
    expect(result.message).toContain("cannot be seen");
  });

  it("a keyed chain verifies with its key only", async () => {
    const path = join(dir, "d.jsonl");
    await write(path, ["one", "two"], "secret");
    expect((await verifyAuditLog(path, "secret")).ok).toBe(true);
    expect(await verifyAuditLog(path)).toMatchObject({ ok: false, badLine: 2 });
    expect(await verifyAuditLog(path, "other")).toMatchObject({ ok: false, badLine: 2 });
  });

  it("an unfinished or non-JSON line is named", async () => {
    const path = join(dir, "e.jsonl");
    await write(path, ["one"]);
    const text = await readFile(path, "utf8");
    await writeFile(path, `${text}{"seq":2`);
    expect(await verifyAuditLog(path)).toMatchObject({ ok: false, badLine: 2 });
    await writeFile(path, `${text}not json\n`);
    expect((await verifyAuditLog(path)).message).toBe("line 2: not JSON");
  });
});
