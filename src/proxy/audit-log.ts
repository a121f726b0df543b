/** `AuditLog`: audit records appended as hash-chained JSON lines, with a head file beside them. */
import { type FileHandle, open, readFile, rename, stat, writeFile } from "node:fs/promises";
import type { AuditRecord, AuditSink } from "./audit.js";
import { type AuditHead, GENESIS, hashLine, headPath, parseHead } from "./audit-chain.js";

/** Options of `AuditLog.open`. */
export interface AuditLogOptions {
  /** Chain with HMAC-SHA256 under this key instead of SHA-256: `mcpkit audit verify --key-file` checks it. */
  key?: string | Uint8Array;
  /**
   * How long the head file may lag the log, in ms: it is rewritten at most this often while lines
   * come, and on `close`. `0` rewrites it after every write. Default 1000.
   */
  headInterval?: number;
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
  if (head && !(await headAgrees(path, head, last, { text, whole: size <= TAIL }, key))) {
    throw new Error(
      `${path} does not match its head file (${head.lines} lines): it was cut or edited; check it with mcpkit audit verify`,
    );
  }
  return last;
}

/** The line numbered `seq` in `text` (whole lines, or a tail whose first line may be cut). */
function lineOf(text: string, seq: number, whole: boolean): string | undefined {
  const marker = `{"seq":${seq},`;
  const at = whole && text.startsWith(marker) ? 0 : text.indexOf(`\n${marker}`) + 1;
  if (at === 0 && !(whole && text.startsWith(marker))) return undefined;
  const end = text.indexOf("\n", at);
  return text.slice(at, end < 0 ? undefined : end);
}

/**
 * Whether the log agrees with its head: the head names the last line, or (the proxy stopped
 * between two writes of the head) an earlier one, which must still hash as the head says.
 */
async function headAgrees(
  path: string,
  head: AuditHead,
  last: AuditHead,
  tail: { text: string; whole: boolean },
  key: AuditLogOptions["key"],
): Promise<boolean> {
  if (head.lines === last.lines) return head.hash === last.hash;
  if (head.lines > last.lines || head.lines === 0) return head.lines === 0 && head.hash === GENESIS;
  // The line is near the end, unless the head lagged by more than the tail read.
  const line =
    lineOf(tail.text, head.lines, tail.whole) ??
    (tail.whole ? undefined : lineOf(await readFile(path, "utf8"), head.lines, true));
  return line !== undefined && hashLine(line, key) === head.hash;
}

/**
 * An audit log written as JSON lines, to a file (appended, created if missing) or to stderr. Each
 * line carries `seq` and `prev`, the hash of the line before (see `audit-chain.ts`); a file log
 * also keeps `<file>.head` with the count and the last hash, so `mcpkit audit verify` notices a
 * cut at the end. The head is rewritten at most every `headInterval` ms and on `close`: a proxy
 * that stops without closing leaves a head up to that long behind, and a cut of only the lines
 * after it would not show. An existing log is continued, and refused if it no longer matches its
 * head (the lines after a lagging head are kept and chained on).
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
  /** What the file holds once the pending lines are written, for the next head write. */
  private appended: AuditHead;
  private headTimer: NodeJS.Timeout | undefined;
  /** The head write under way: writes of the head never overlap. */
  private headWrite: Promise<void> = Promise.resolve();
  private headError: unknown;
  /** What the head file says. */
  private onDisk: AuditHead;

  private constructor(
    private readonly handle: FileHandle | undefined,
    /** Where the lines go, for messages: the file's path, or "stderr". */
    readonly target: string,
    private head: AuditHead,
    private readonly key: AuditLogOptions["key"],
    private readonly headInterval: number,
  ) {
    this.appended = head;
    this.onDisk = head;
  }

  /** Opens `path` for appending, or stderr for `"-"`. Rejects if the file cannot be opened or was tampered with. */
  static async open(path: string, options: AuditLogOptions = {}): Promise<AuditLog> {
    const interval = options.headInterval ?? 1000;
    if (path === "-")
      return new AuditLog(undefined, "stderr", { lines: 0, hash: GENESIS }, options.key, interval);
    const head = await lastOf(path, options.key);
    return new AuditLog(await open(path, "a", 0o600), path, head, options.key, interval);
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

  /** Waits for the lines written so far, writes the head, then closes the file. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.flushing;
    clearTimeout(this.headTimer);
    this.headTimer = undefined;
    try {
      if (this.handle) await this.writeHead();
    } finally {
      await this.handle?.close();
    }
    if (this.headError !== undefined) throw this.headError;
  }

  /** Writes what is pending until nothing is; the head follows (see `headInterval`). */
  private async flush(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending;
      this.pending = [];
      const head = this.head;
      try {
        await this.append(batch.map((entry) => `${entry.line}\n`).join(""));
        this.appended = head;
        if (this.handle && this.headInterval === 0) await this.writeHead();
        else this.scheduleHead();
        for (const entry of batch) entry.resolve();
      } catch (error) {
        for (const entry of batch) entry.reject(error);
      }
    }
    this.flushing = undefined;
  }

  /** Writes the head within `headInterval`, unless a write is already due. */
  private scheduleHead(): void {
    if (!this.handle || this.headTimer !== undefined || this.closed) return;
    this.headTimer = setTimeout(() => {
      this.headTimer = undefined;
      this.writeHead().catch((error: unknown) => {
        this.headError = error;
      });
    }, this.headInterval);
    // A lagging head is what a crash leaves anyway: it does not keep the process alive.
    this.headTimer.unref();
  }

  /** Replaces the head file with what the log holds now (a new file renamed over it: never half written). */
  private writeHead(): Promise<void> {
    this.headWrite = this.headWrite
      .catch(() => {})
      .then(async () => {
        const head = this.appended;
        if (head.lines === this.onDisk.lines) return;
        const file = headPath(this.target);
        await writeFile(`${file}.tmp`, `${JSON.stringify(head)}\n`, { mode: 0o600 });
        await rename(`${file}.tmp`, file);
        this.onDisk = head;
      });
    return this.headWrite;
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
