/** `AuditLog`: audit records appended as hash-chained JSON lines, with a head file beside them. */
import { type FileHandle, open, readFile, rename, stat, writeFile } from "node:fs/promises";
import type { AuditRecord, AuditSink } from "./audit.js";
import { type AuditHead, GENESIS, hashLine, headPath, parseHead } from "./audit-chain.js";

/** Options of `AuditLog.open`. */
export interface AuditLogOptions {
  /** Chain with HMAC-SHA256 under this key instead of SHA-256: `mcpkit audit verify --key-file` checks it. */
  key?: string | Uint8Array;
}

/** How much of the end of an existing log is read to find its last line. */
const TAIL = 1024 * 1024;

/** The last line of the log at `path` and the head beside it; throws if they disagree. */
async function lastOf(path: string, key: AuditLogOptions["key"]): Promise<AuditHead> {
  const size = (await stat(path).catch(() => undefined))?.size ?? 0;
  const head = parseHead(await readFile(headPath(path), "utf8").catch(() => ""));
  if (size === 0) {
    if (head && head.lines > 0)
      throw new Error(`${path} is empty but its head file says ${head.lines} lines: it was cut`);
    return { lines: 0, hash: GENESIS };
  }
  const handle = await open(path, "r");
  let text: string;
  try {
    const length = Math.min(size, TAIL);
    const buffer = Buffer.alloc(length);
    await handle.read(buffer, 0, length, size - length);
    text = buffer.toString("utf8");
  } finally {
    await handle.close();
  }
  if (!text.endsWith("\n"))
    throw new Error(`${path} ends in an incomplete line: check it with mcpkit audit verify`);
  const line = text.slice(text.lastIndexOf("\n", text.length - 2) + 1, -1);
  let seq: unknown;
  try {
    seq = (JSON.parse(line) as { seq?: unknown }).seq;
  } catch {
    seq = undefined;
  }
  if (typeof seq !== "number")
    throw new Error(
      `the last line of ${path} is not a chained audit record: check it with mcpkit audit verify`,
    );
  const last = { lines: seq, hash: hashLine(line, key) };
  if (head && (head.lines !== last.lines || head.hash !== last.hash)) {
    throw new Error(
      `${path} does not match its head file (${head.lines} lines): it was cut or edited; check it with mcpkit audit verify`,
    );
  }
  return last;
}

/**
 * An audit log written as JSON lines, to a file (appended, created if missing) or to stderr. Each
 * line carries `seq` and `prev`, the hash of the line before (see `audit-chain.ts`); a file log
 * also keeps `<file>.head` with the count and the last hash, so `mcpkit audit verify` notices a
 * cut at the end. An existing log is continued, and refused if it no longer matches its head.
 * `write` resolves once its line is written, so a call's line exists before its answer is sent;
 * lines that arrive together are written together.
 *
 * @example
 * const audit = await AuditLog.open("audit.jsonl"); // or "-" for stderr
 * const proxy = await createProxyServer({ config: "mcp.json", audit: audit.sink });
 */
export class AuditLog {
  private pending: { line: string; resolve: () => void; reject: (error: unknown) => void }[] = [];
  private flushing: Promise<void> | undefined;
  private closed = false;

  private constructor(
    private readonly handle: FileHandle | undefined,
    /** Where the lines go, for messages: the file's path, or "stderr". */
    readonly target: string,
    private head: AuditHead,
    private readonly key: AuditLogOptions["key"],
  ) {}

  /** Opens `path` for appending, or stderr for `"-"`. Rejects if the file cannot be opened or was tampered with. */
  static async open(path: string, options: AuditLogOptions = {}): Promise<AuditLog> {
    if (path === "-") return new AuditLog(undefined, "stderr", { lines: 0, hash: GENESIS }, options.key);
    const head = await lastOf(path, options.key);
    return new AuditLog(await open(path, "a", 0o600), path, head, options.key);
  }

  /** `write`, bound: give it as the proxy's `audit` option. */
  readonly sink: AuditSink = (record) => this.write(record);

  /** Appends one record as a line, chained to the one before. */
  write(record: AuditRecord): Promise<void> {
    if (this.closed) return Promise.reject(new Error(`The audit log ${this.target} is closed`));
    const seq = this.head.lines + 1;
    const line = JSON.stringify({ seq, ...record, prev: this.head.hash });
    this.head = { lines: seq, hash: hashLine(line, this.key) };
    const written = new Promise<void>((resolve, reject) => this.pending.push({ line, resolve, reject }));
    this.flushing ??= this.flush();
    return written;
  }

  /** Waits for the lines written so far, then closes the file. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.flushing;
    await this.handle?.close();
  }

  /** Writes what is pending, then the head, until nothing is. */
  private async flush(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending;
      this.pending = [];
      const head = this.head;
      try {
        await this.append(batch.map((entry) => `${entry.line}\n`).join(""));
        if (this.handle) {
          const file = headPath(this.target);
          await writeFile(`${file}.tmp`, `${JSON.stringify(head)}\n`, { mode: 0o600 });
          await rename(`${file}.tmp`, file);
        }
        for (const entry of batch) entry.resolve();
      } catch (error) {
        for (const entry of batch) entry.reject(error);
      }
    }
    this.flushing = undefined;
  }

  private async append(text: string): Promise<void> {
    if (this.handle) {
      await this.handle.appendFile(text, "utf8");
      return;
    }
    await new Promise<void>((resolve, reject) =>
      process.stderr.write(text, (error) => (error ? reject(error) : resolve())),
    );
  }
}
