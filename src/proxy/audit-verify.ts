/** Checking an audit log's hash chain and head: what `mcpkit audit verify` runs. */
import { readFile } from "node:fs/promises";
import { GENESIS, hashLine, headPath, parseHead } from "./audit-chain.js";

/** The outcome of `verifyAuditLog`. */
export interface AuditVerification {
  ok: boolean;
  /** How many lines verified, in order from the first. */
  lines: number;
  /** The first bad line (1-based), when not `ok`. */
  badLine?: number;
  /** What is wrong, or, when `ok`, what was checked. */
  message: string;
  /** Whether a head file was there to check the end against (without one a cut at the end is not seen). */
  headChecked: boolean;
  /**
   * How many lines come after the one the head file names: written after its last write (it is
   * rewritten at intervals and on close, so a proxy that stopped without closing leaves some). A
   * cut of only these lines would not show.
   */
  afterHead?: number;
}

/**
 * Verifies the log at `path`: every line JSON with `seq` counting from 1 and `prev` the hash of
 * the line before, then the head file (`<path>.head`), if any, naming the same count and last
 * hash, or an earlier line and its hash (see `afterHead`). Give the `key` the log was written with, if any.
 */
export async function verifyAuditLog(path: string, key?: string | Uint8Array): Promise<AuditVerification> {
  const text = await readFile(path, "utf8");
  const headText = await readFile(headPath(path), "utf8").catch(() => undefined);
  const lines = text === "" ? [] : text.split("\n");
  const complete = lines.length === 0 || lines.at(-1) === "";
  if (complete && lines.length > 0) lines.pop();
  const bad = (n: number, why: string): AuditVerification => ({
    ok: false,
    lines: n - 1,
    badLine: n,
    message: `line ${n}: ${why}`,
    headChecked: headText !== undefined,
  });
  let prev = GENESIS;
  /** The hash of each line, to check a head that names an earlier one. */
  const hashes: string[] = [GENESIS];
  for (let i = 0; i < lines.length; i++) {
    const n = i + 1;
    const line = lines[i]!;
    if (!complete && n === lines.length) return bad(n, "incomplete (the file does not end with a newline)");
    let record: { seq?: unknown; prev?: unknown };
    try {
      record = JSON.parse(line) as typeof record;
    } catch {
      return bad(n, "not JSON");
    }
    if (record.seq !== n)
      return bad(n, `seq is ${JSON.stringify(record.seq)}, expected ${n} (a line was removed or moved)`);
    if (record.prev !== prev)
      return bad(
        n,
        `prev does not match the hash of line ${n - 1 || "0 (the start)"}: a line before it was edited or removed`,
      );
    prev = hashLine(line, key);
    hashes.push(prev);
  }
  const count = lines.length;
  if (headText === undefined) {
    return {
      ok: true,
      lines: count,
      message: `${count} lines verified; no head file (${headPath(path)}), so a cut at the end cannot be seen`,
      headChecked: false,
    };
  }
  const head = parseHead(headText);
  if (!head) return bad(count + 1, `the head file ${headPath(path)} is not valid`);
  if (head.lines > count)
    return bad(
      count + 1,
      `missing: the head file says ${head.lines} lines, the file ends after ${count} (cut)`,
    );
  if (head.hash !== hashes[head.lines])
    return bad(Math.max(head.lines, 1), "differs from the line the head file recorded (edited)");
  if (head.lines < count) {
    const after = count - head.lines;
    return {
      ok: true,
      lines: count,
      message: `${count} lines verified; the head file names line ${head.lines}, so a cut of the ${after} after it (written after its last update: the proxy did not close the log) cannot be seen`,
      headChecked: true,
      afterHead: after,
    };
  }
  return { ok: true, lines: count, message: `${count} lines verified, head included`, headChecked: true };
}
