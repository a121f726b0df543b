import { type ChildProcess, spawn } from "node:child_process";
import { ErrorCode, McpError } from "../../jsonrpc/errors.js";
import { type FramingError, NdjsonDecoder, serializeMessage } from "../../jsonrpc/framing.js";
import type { JSONRPCMessage } from "../../jsonrpc/messages.js";
import { PIPE_NETWORK, type Transport, type TransportHandlers } from "../../protocol/transport.js";
import { inertText } from "../../util/inert-text.js";
import { childEnvironment } from "./child-env.js";
import { LineGuard, type SkippedLine } from "./line-guard.js";
import { groupAlive, signalGroup } from "./process-group.js";
import { trackGroup, untrackGroup } from "./reaper.js";
import { skippedResponseId } from "./skipped-response.js";
import { StderrTail } from "./stderr-tail.js";
import { MESSAGES_PER_TURN, WriteBatcher } from "./write-batcher.js";

/** How to start a stdio server. */
export interface StdioServerParameters {
  /** The executable, looked up on `PATH`. */
  command: string;
  args?: string[];
  /**
   * Variables for the server, added to those it gets of the parent's environment: by default only
   * `HOME`, `LOGNAME`, `PATH`, `SHELL`, `TERM` and `USER` (on Windows `APPDATA`, `PATH`,
   * `SYSTEMROOT`, `TEMP`, `USERPROFILE` and a few more: `DEFAULT_INHERITED_ENV`), without values
   * that start with `()`.
   */
  env?: Record<string, string | undefined>;
  /** Give the server the parent's whole environment (credentials included) instead of the safelist. */
  inheritEnv?: boolean;
  cwd?: string;
  /** Receives each line the server writes to stderr (it is always drained either way). */
  onStderr?: (line: string) => void;
  /** Grace period of each shutdown step (stdin closed, then SIGTERM), in ms. Default 2000. */
  closeTimeout?: number;
  /** Longest message accepted from the server, in characters; a longer one closes the connection. */
  maxMessageSize?: number;
  /**
   * Longest message accepted from the server, in bytes, counted as it arrives: a longer line is
   * skipped unread (never decoded, kept whole or parsed, so it neither fills memory nor holds the
   * event loop) and the connection stays usable. A response skipped so fails its request with
   * `-32603` and `data: { size, maxMessageBytes }`; anything else skipped is reported as an error.
   * Default: no such bound (only `maxMessageSize`).
   */
  maxMessageBytes?: number;
  /**
   * How many lines that are not JSON-RPC messages (a debugger's or a banner's, pretty-printed JSON)
   * the server may write to stdout in a row before the connection is closed. Each is skipped and
   * reported (as an error to the engine, and as a `stdout: …` line of the stderr channel). Default 1000.
   */
  maxNoiseLines?: number;
}

/** Default of `maxNoiseLines`. */
export const DEFAULT_MAX_NOISE_LINES = 1000;

/**
 * The client's stdio transport: spawns the server in its own process group and talks
 * newline-delimited JSON over its stdin/stdout. Closing ends the whole group.
 */
export class StdioClientTransport implements Transport {
  readonly network = PIPE_NETWORK;
  private child: ChildProcess | undefined;
  private handlers: TransportHandlers | undefined;
  private readonly stderr: StderrTail;
  private writer: WriteBatcher | undefined;
  private closing: Promise<void> | undefined;
  private ended = false;
  private notified = false;
  private badLine: Error | undefined;
  private decoder: NdjsonDecoder | undefined;
  /** Lines in a row on stdout that were not messages; a message resets it. */
  private noise = 0;

  constructor(private readonly params: StdioServerParameters) {
    this.stderr = new StderrTail(20, 500, params.onStderr);
  }

  /** The server's process id, while it runs. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** The last lines the server wrote to stderr. */
  get stderrTail(): string {
    return this.stderr.text();
  }

  async start(handlers: TransportHandlers): Promise<void> {
    this.handlers = handlers;
    const { command, args = [], env, cwd, inheritEnv } = this.params;
    const child = spawn(command, args, {
      cwd,
      env: childEnvironment(env, inheritEnv),
      stdio: ["pipe", "pipe", "pipe"],
      detached: true,
      windowsHide: true,
    });
    this.child = child;
    await new Promise<void>((resolve, reject) => {
      child.once("spawn", resolve);
      child.once("error", (error) => {
        this.ended = true;
        reject(new McpError(ErrorCode.ConnectionClosed, `Could not start ${command}: ${error.message}`));
      });
    });
    const pgid = child.pid!;
    trackGroup(pgid);
    this.writer = new WriteBatcher(child.stdin!);
    child.stdin!.on("error", () => {
      // EPIPE when the server is gone; its exit is reported by "close".
    });
    const decoder = new NdjsonDecoder(
      (value) => {
        // Once the stream is no longer trusted, nothing more of it is read.
        if (this.badLine) return;
        // JSON that is not even meant as JSON-RPC (a number, a log record) is noise, not a bad request.
        if ((value as { jsonrpc?: unknown } | null)?.jsonrpc !== "2.0") {
          this.noisy(excerptOf(value));
          return;
        }
        this.noise = 0;
        handlers.onmessage(value);
      },
      (error) => (error.kind === "parse" ? this.noisy(error.excerpt) : this.badOutput(error)),
      { maxMessageSize: this.params.maxMessageSize, messagesPerTurn: MESSAGES_PER_TURN },
    );
    this.decoder = decoder;
    const { maxMessageBytes } = this.params;
    if (maxMessageBytes === undefined) {
      child.stdout!.on("data", (chunk: Buffer) => decoder.push(chunk));
    } else {
      const guard = new LineGuard(
        maxMessageBytes,
        (bytes) => decoder.push(bytes),
        (line) => this.skipped(line, maxMessageBytes),
      );
      child.stdout!.on("data", (chunk: Buffer) => guard.push(chunk));
    }
    child.stderr!.setEncoding("utf8");
    child.stderr!.on("data", (chunk: string) => this.stderr.push(chunk));
    child.on("exit", () => {
      // The leader is gone; anything left in its group is an orphan of this connection.
      if (!groupAlive(pgid)) untrackGroup(pgid);
    });
    child.on("close", (code, signal) => {
      // What the server wrote before it exited is read before its exit is reported.
      decoder.flush();
      this.stderr.end();
      this.ended = true;
      this.notifyClosed(
        this.badLine ??
          new Error(`the server process exited (${signal ? `signal ${signal}` : `code ${code}`})`),
      );
      void this.close();
    });
  }

  send(message: JSONRPCMessage): void {
    if (this.closing || this.ended || !this.writer) {
      throw new McpError(ErrorCode.ConnectionClosed, "the stdio connection is closed");
    }
    this.writer.write(serializeMessage(message));
  }

  sendBatch(responses: JSONRPCMessage[]): void {
    if (this.closing || this.ended || !this.writer) {
      throw new McpError(ErrorCode.ConnectionClosed, "the stdio connection is closed");
    }
    this.writer.write(`${JSON.stringify(responses)}\n`);
  }

  /** Ends stdin, waits, then SIGTERM and at last SIGKILL to the whole process group. */
  close(): Promise<void> {
    this.closing ??= this.shutdown();
    this.notifyClosed(undefined);
    return this.closing;
  }

  private async shutdown(): Promise<void> {
    const child = this.child;
    if (!child?.pid) return;
    const pgid = child.pid;
    const grace = this.params.closeTimeout ?? 2000;
    this.writer?.end();
    if (!(await this.groupGoneWithin(pgid, grace))) {
      signalGroup(pgid, "SIGTERM");
      if (!(await this.groupGoneWithin(pgid, grace))) {
        signalGroup(pgid, "SIGKILL");
        // SIGKILL cannot be refused, but takes a moment to land.
        await this.groupGoneWithin(pgid, grace);
      }
    }
    untrackGroup(pgid);
    child.stdout?.destroy();
    child.stderr?.destroy();
  }

  /** Waits until the leader has exited and no process of its group remains. */
  private async groupGoneWithin(pgid: number, ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    for (;;) {
      const leaderGone = this.child!.exitCode !== null || this.child!.signalCode !== null;
      if (leaderGone && !groupAlive(pgid)) return true;
      if (Date.now() >= deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, leaderGone ? 10 : 25));
    }
  }

  /**
   * A line on stdout that is not a message (`Debugger attached.`, a banner) is skipped and reported;
   * only a flood of them, `maxNoiseLines` in a row, closes the connection.
   */
  private noisy(excerpt: string): void {
    if (this.badLine) return;
    this.stderr.add(`stdout: ${excerpt}`);
    const limit = this.params.maxNoiseLines ?? DEFAULT_MAX_NOISE_LINES;
    if (++this.noise >= limit) {
      this.stop(
        `the server wrote ${limit} lines in a row that are not JSON-RPC messages to stdout; the last: ${excerpt}`,
      );
      return;
    }
    this.handlers?.onerror(
      new McpError(
        ErrorCode.ParseError,
        `Skipped a line the server wrote to stdout that is not a JSON-RPC message: ${excerpt}`,
      ),
    );
  }

  /**
   * A line longer than `maxMessageBytes`, skipped whole: the request it answers fails, with the
   * sizes in `data`; a line that is no response is reported.
   */
  private skipped(line: SkippedLine, limit: number): void {
    if (this.badLine || !this.handlers) return;
    const data = { size: line.bytes, maxMessageBytes: limit };
    const id = skippedResponseId(line);
    if (id === undefined) {
      this.handlers.onerror(
        new McpError(
          ErrorCode.ParseError,
          `Skipped a message of ${line.bytes} bytes the server wrote to stdout, more than maxMessageBytes (${limit}): ${inertText(line.head, { max: 200 })}`,
          data,
        ),
      );
      return;
    }
    const error = new McpError(
      ErrorCode.InternalError,
      `The server's response to request ${inertText(JSON.stringify(id), { max: 100 })} is ${line.bytes} bytes, more than maxMessageBytes (${limit}); it was skipped unread`,
      data,
    );
    this.handlers.onmessage({ jsonrpc: "2.0", id, error: error.toJSON() });
  }

  /** A line longer than `maxMessageSize`: the stream can no longer be trusted. */
  private badOutput(error: FramingError): void {
    this.stop(
      `the server wrote something that is not a JSON-RPC message to stdout (${error.message}): ${error.excerpt}`,
    );
  }

  /**
   * Stops the server at once; the error is reported when its stderr has drained (bounded by the
   * grace period), so it carries what the server said last.
   */
  private stop(why: string): void {
    if (this.badLine) return;
    this.badLine = new Error(why);
    signalGroup(this.child!.pid!, "SIGTERM");
    // The "close" handler reports it; this bounds the wait for a server that lingers.
    const timer = setTimeout(() => {
      this.notifyClosed(this.badLine);
      void this.close();
    }, this.params.closeTimeout ?? 2000);
    this.child!.once("close", () => clearTimeout(timer));
  }

  /** Tells the engine once that the connection ended, with the reason and the stderr tail. */
  private notifyClosed(error: Error | undefined): void {
    if (this.notified || !this.handlers) return;
    this.notified = true;
    this.decoder?.clear();
    this.handlers.onclose(error ? new Error(error.message + this.stderr.suffix()) : undefined);
  }
}

/** The start of a JSON value's text, for a report; any value, however deep. */
function excerptOf(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value);
  } catch {
    text = Array.isArray(value) ? "[…]" : "{…}";
  }
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
