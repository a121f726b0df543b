/**
 * The hash chain of an audit log: each line carries `seq` (1, 2, …) and `prev`, the hash of the
 * line before it (of the first: 64 zeros), so an edited, removed or reordered line breaks the
 * chain at the next one. The head file beside the log (`<log>.head`) holds the line count and
 * the last line's hash, so a cut at the end, or an edit of the last line, shows too.
 *
 * With a key the hashes are HMAC-SHA256: then only the key's holder can write a chain that
 * verifies; without one (SHA-256) someone who rewrites the whole file and its head goes unnoticed.
 */
import { createHash, createHmac } from "node:crypto";

/** The `prev` of the first line. */
export const GENESIS = "0".repeat(64);

/** The hash of one line (its text without the newline), lowercase hex. */
export function hashLine(line: string, key?: string | Uint8Array): string {
  const hash = key === undefined ? createHash("sha256") : createHmac("sha256", key);
  return hash.update(line, "utf8").digest("hex");
}

/** What the head file holds. */
export interface AuditHead {
  lines: number;
  hash: string;
}

/** The path of a log's head file. */
export const headPath = (path: string) => `${path}.head`;

/** Parses a head file's text; `undefined` if it is not one. */
export function parseHead(text: string): AuditHead | undefined {
  try {
    const head = JSON.parse(text) as Partial<AuditHead>;
    if (typeof head.lines === "number" && Number.isInteger(head.lines) && typeof head.hash === "string")
      return { lines: head.lines, hash: head.hash };
  } catch {
    // not JSON
  }
  return undefined;
}
