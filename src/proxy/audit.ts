/**
 * The proxy's audit log: one JSON line per tool call, saying who called what (a digest of the
 * arguments, never the arguments), how it ended, how big the answer was and how long it took.
 */
import { createHash } from "node:crypto";
import type { CallOutcome } from "./middleware.js";

/**
 * How a call ended: `ok` (a result), `tool_error` (a result with `isError: true`), `error` (a
 * JSON-RPC or transport error: the server refused the call, or could not be reached), `cancelled`
 * (the client cancelled the request, or its connection closed, before the answer), `denied` (the
 * proxy's policy refused it: the upstream was not called), `abandoned` (a stateless caller was
 * asked for input and did not come back within `inputTimeout`: the upstream call was cancelled).
 */
export type AuditOutcome = CallOutcome;

/** One line of the audit log. */
export interface AuditRecord {
  /** When the call arrived, ISO 8601 in UTC. */
  time: string;
  /** The server the call went to (its name in the config; for a bridge, the upstream's name). */
  server: string;
  /** The tool's name on that server (not the prefixed name clients see). */
  tool: string;
  /** SHA-256 (lowercase hex) of the canonical JSON of the arguments: equal arguments, equal digests. */
  argsDigest: string;
  outcome: AuditOutcome;
  /** The size of the result passed back, in bytes of JSON (absent for an error). */
  resultSize?: number;
  /** From the call's arrival to its answer, in whole milliseconds. */
  durationMs: number;
  /** Who called: the verified subject of the caller's token, when the proxy's front takes tokens. */
  subject?: string;
  /** The OAuth client the caller's token was issued to, when it says. */
  clientId?: string;
}

/** Where audit records go; the proxy waits for it before answering the call. */
export type AuditSink = (record: AuditRecord) => void | Promise<void>;

/**
 * JSON with object keys sorted (by UTF-16 code units) and no whitespace, as RFC 8785 (JCS) has it
 * for the values JSON can carry: the same value always gives the same text, whatever the key order.
 * `undefined` members are left out, as `JSON.stringify` does.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) {
    return `[${value.map((item) => (item === undefined ? "null" : canonicalJson(item))).join(",")}]`;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((key) => record[key] !== undefined && typeof record[key] !== "function")
    .sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(",")}}`;
}

/** The `argsDigest` of a call's arguments: SHA-256 of their canonical JSON, lowercase hex. */
export function digestArguments(args: unknown): string {
  return createHash("sha256")
    .update(canonicalJson(args ?? {}))
    .digest("hex");
}
