import { StringDecoder } from "node:string_decoder";
import { messageJson } from "./fixed-json.js";
import { MessageParser } from "./message-parser.js";

/** Default largest message the stdio framer accepts: 64 MiB (in UTF-16 code units). */
export const DEFAULT_MAX_MESSAGE_SIZE = 64 * 1024 * 1024;

/** Why a line could not become a message. */
export class FramingError extends Error {
  override readonly name = "FramingError";
  constructor(
    message: string,
    /** `parse`: not JSON; `size`: longer than the limit. */
    readonly kind: "parse" | "size",
    /** The start of the offending line, for error messages. */
    readonly excerpt: string,
  ) {
    super(message);
  }
}

export interface NdjsonDecoderOptions {
  /** Longest line accepted; longer lines are dropped and reported. */
  maxMessageSize?: number;
  /**
   * Most messages delivered in one turn of the event loop; the rest of a burst follows in later
   * turns (`setImmediate`). Between turns what the first messages produced (their responses) is
   * written, so the peer works on those while the rest are handled, as with one message at a
   * time, instead of both sides taking turns over whole bursts. Default: no limit.
   */
  messagesPerTurn?: number;
}

function excerptOf(line: string): string {
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

/**
 * Splits newline-delimited JSON out of arbitrary chunks: partial lines, many lines per chunk,
 * `\r\n` endings and blank lines. A scanner over the decoded text, not `readline`, so one chunk
 * costs one decode and one `indexOf` per message.
 */
export class NdjsonDecoder {
  private readonly decoder = new StringDecoder("utf8");
  private readonly parser = new MessageParser();
  private readonly maxMessageSize: number;
  private readonly messagesPerTurn: number;
  private pending = "";
  /** Set while skipping the rest of an over-long line. */
  private discarding = false;
  /** Decoded text waiting for a later turn (`messagesPerTurn`), oldest first. */
  private backlog: string[] = [];
  private scheduled = false;

  constructor(
    private readonly onMessage: (value: unknown) => void,
    private readonly onError: (error: FramingError) => void,
    options: NdjsonDecoderOptions = {},
  ) {
    this.maxMessageSize = options.maxMessageSize ?? DEFAULT_MAX_MESSAGE_SIZE;
    this.messagesPerTurn = options.messagesPerTurn ?? Number.POSITIVE_INFINITY;
  }

  /**
   * Feeds a chunk. Its complete lines are delivered before this returns, up to `messagesPerTurn`
   * (counting those still waiting from earlier chunks); the rest in the next turns.
   */
  push(chunk: Uint8Array | string): void {
    const text = typeof chunk === "string" ? chunk : this.decoder.write(chunk);
    if (this.backlog.length > 0) this.backlog.push(text);
    else this.scan(text, 0, this.messagesPerTurn);
  }

  /** Delivers every line still waiting for its turn, now. */
  flush(): void {
    const backlog = this.backlog;
    this.backlog = [];
    for (const text of backlog) this.scan(text, 0, Number.POSITIVE_INFINITY);
  }

  /** Ends the stream: lines waiting are delivered, and a last line without a newline still counts. */
  end(): void {
    this.flush();
    const rest = this.pending + this.decoder.end();
    this.pending = "";
    if (!this.discarding) this.line(rest);
    this.discarding = false;
  }

  /** Forgets lines waiting for their turn: the stream is closed. */
  clear(): void {
    this.backlog = [];
  }

  /** Delivers the lines of `text` from `start`, at most `budget`; returns the budget left. */
  private scan(text: string, start: number, budget: number): number {
    for (;;) {
      const newline = text.indexOf("\n", start);
      if (newline === -1) {
        this.keep(text, start);
        return budget;
      }
      if (budget === 0) {
        this.backlog.unshift(text.slice(start));
        this.schedule();
        return 0;
      }
      if (this.discarding) {
        this.discarding = false;
      } else {
        const line =
          this.pending.length === 0 ? text.slice(start, newline) : this.pending + text.slice(start, newline);
        this.pending = "";
        this.line(line);
        budget--;
      }
      start = newline + 1;
    }
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(this.resume);
  }

  private readonly resume = (): void => {
    this.scheduled = false;
    let budget = this.messagesPerTurn;
    while (this.backlog.length > 0) {
      if (budget === 0) {
        this.schedule();
        return;
      }
      budget = this.scan(this.backlog.shift()!, 0, budget);
    }
  };

  private keep(text: string, start: number): void {
    if (this.discarding || start === text.length) return;
    this.pending = this.pending.length === 0 ? text.slice(start) : this.pending + text.slice(start);
    if (this.pending.length > this.maxMessageSize) {
      this.tooLong(this.pending);
      this.pending = "";
      this.discarding = true;
    }
  }

  private line(raw: string): void {
    const line = raw.charCodeAt(raw.length - 1) === 13 ? raw.slice(0, -1) : raw;
    if (line.length > this.maxMessageSize) {
      this.tooLong(line);
      return;
    }
    // A line that starts an object is not blank; only others need the closer look.
    if (line.charCodeAt(0) !== 123 && line.trim().length === 0) return;
    let value: unknown;
    try {
      value = this.parser.parse(line);
    } catch (error) {
      this.onError(
        new FramingError(`not valid JSON (${(error as Error).message})`, "parse", excerptOf(line)),
      );
      return;
    }
    this.onMessage(value);
  }

  private tooLong(line: string): void {
    this.onError(
      new FramingError(
        `message longer than the limit of ${this.maxMessageSize} characters`,
        "size",
        excerptOf(line),
      ),
    );
  }
}

/** One message as one line of newline-delimited JSON. */
export function serializeMessage(message: object): string {
  return `${messageJson(message)}\n`;
}
