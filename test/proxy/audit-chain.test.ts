/** The audit log's hash chain: continuing a log, refusing one that was cut, and keyed chains. */
import { copyFile, mkdtemp, readFile, rm, truncate, writeFile } from "node:fs/promises";
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

  it("the head follows at intervals and on close; a log whose head lags (a crash) verifies and goes on", async () => {
    const path = join(dir, "f.jsonl");
    await write(path, ["one", "two"]);
    const log = await AuditLog.open(path, { headInterval: 60_000 });
    await log.write(record("three"));
    await log.write(record("four"));
    // What a crash now leaves: four lines, a head naming the second.
    const crashed = join(dir, "crashed.jsonl");
    await copyFile(path, crashed);
    await copyFile(`${path}.head`, `${crashed}.head`);
    await log.close();
    expect(JSON.parse(await readFile(`${path}.head`, "utf8"))).toMatchObject({ lines: 4 });
    expect(JSON.parse(await readFile(`${crashed}.head`, "utf8"))).toMatchObject({ lines: 2 });

    const lagging = await verifyAuditLog(crashed);
    expect(lagging).toMatchObject({ ok: true, lines: 4, headChecked: true, afterHead: 2 });
    expect(lagging.message).toContain("cannot be seen");
    await write(crashed, ["five"]);
    expect(await verifyAuditLog(crashed)).toMatchObject({ ok: true, lines: 5, headChecked: true });
    expect(await verifyAuditLog(crashed)).not.toHaveProperty("afterHead");
  });

  it("with a lagging head, an edited line, a removed line and a cut into what the head names still show", async () => {
    const path = join(dir, "g.jsonl");
    await write(path, ["one", "two", "three"]);
    const log = await AuditLog.open(path, { headInterval: 60_000 });
    await log.write(record("four"));
    const lines = (await readFile(path, "utf8")).split("\n").slice(0, -1);
    const head = await readFile(`${path}.head`, "utf8");
    await log.close();
    const variant = async (name: string, kept: string[]) => {
      const file = join(dir, name);
      await writeFile(file, `${kept.join("\n")}\n`);
      await writeFile(`${file}.head`, head);
      return file;
    };
    const edited = await variant("edited.jsonl", [
      lines[0]!,
      lines[1]!.replace('"two"', '"TWO"'),
      ...lines.slice(2),
    ]);
    expect(await verifyAuditLog(edited)).toMatchObject({ ok: false, badLine: 3 });
    const lastKnownEdited = await variant("edited3.jsonl", [
      ...lines.slice(0, 2),
      lines[2]!.replace('"three"', '"3"'),
    ]);
    expect(await verifyAuditLog(lastKnownEdited)).toMatchObject({ ok: false, badLine: 3 });
    await expect(AuditLog.open(lastKnownEdited)).rejects.toThrow(/does not match its head file/);
    const removed = await variant("removed.jsonl", [lines[0]!, ...lines.slice(2)]);
    expect(await verifyAuditLog(removed)).toMatchObject({ ok: false, badLine: 2 });
    const cut = await variant("cut.jsonl", lines.slice(0, 2));
    expect(await verifyAuditLog(cut)).toMatchObject({ ok: false, badLine: 3 });
    await expect(AuditLog.open(cut)).rejects.toThrow(/does not match its head file/);
  });

  it("headInterval 0 writes the head with every write", async () => {
    const path = join(dir, "h.jsonl");
    const log = await AuditLog.open(path, { headInterval: 0 });
    await log.write(record("one"));
    expect(JSON.parse(await readFile(`${path}.head`, "utf8"))).toMatchObject({ lines: 1 });
    await log.close();
  });
});
