/**
 * The proxy's audit log: one JSON line per tool call, saying who was called, with what (a digest of
 * the arguments, never the arguments), how it ended and how long it took.
 */
import { createHash } from "node:crypto";
import { type FileHandle, open } from "node:fs/promises";

/**
 * How a call ended: `ok` (a result), `tool_error` (a result with `isError: true`), `error` (a
 * JSON-RPC or transport error: the server refused the call, or could not be reached), `cancelled`
 * (the client cancelled the request, or its connection closed, before the answer).
 */
export type AuditOutcome = "ok" | "tool_error" | "error" | "cancelled";

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

/**
 * An audit log written as JSON lines, to a file (appended, created if missing) or to stderr. Lines
 * are written one at a time in the order of `write` calls; `write` resolves once its line is
 * written, so a call's line exists before its answer is sent.
 *
 * @example
 * const audit = await AuditLog.open("audit.jsonl"); // or "-" for stderr
 * const proxy = await createProxyServer({ config: "mcp.json", audit: audit.sink });
 */
export class AuditLog {
  private queue: Promise<void> = Promise.resolve();
  private closed = false;

  private constructor(
    private readonly handle: FileHandle | undefined,
    /** Where the lines go, for messages: the file's path, or "stderr". */
    readonly target: string,
  ) {}

  /** Opens `path` for appending, or stderr for `"-"`. Rejects if the file cannot be opened. */
  static async open(path: string): Promise<AuditLog> {
    if (path === "-") return new AuditLog(undefined, "stderr");
    return new AuditLog(await open(path, "a", 0o600), path);
  }

  /** `write`, bound: give it as the proxy's `audit` option. */
  readonly sink: AuditSink = (record) => this.write(record);

  /** Appends one record as a line. */
  write(record: AuditRecord): Promise<void> {
    if (this.closed) return Promise.reject(new Error(`The audit log ${this.target} is closed`));
    const line = `${JSON.stringify(record)}\n`;
    const written = this.queue.then(() => this.append(line));
    this.queue = written.catch(() => {});
    return written;
  }

  /** Waits for the lines written so far, then closes the file. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.queue;
    await this.handle?.close();
  }

  private async append(line: string): Promise<void> {
    if (this.handle) {
      await this.handle.appendFile(line, "utf8");
      return;
    }
    await new Promise<void>((resolve, reject) =>
      process.stderr.write(line, (error) => (error ? reject(error) : resolve())),
    );
  }
}
