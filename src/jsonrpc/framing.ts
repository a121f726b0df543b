import { StringDecoder } from "node:string_decoder";

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
  private readonly maxMessageSize: number;
  private pending = "";
  /** Set while skipping the rest of an over-long line. */
  private discarding = false;

  constructor(
    private readonly onMessage: (value: unknown) => void,
    private readonly onError: (error: FramingError) => void,
    options: NdjsonDecoderOptions = {},
  ) {
    this.maxMessageSize = options.maxMessageSize ?? DEFAULT_MAX_MESSAGE_SIZE;
  }

  /** Feeds a chunk; complete lines are delivered before this returns. */
  push(chunk: Uint8Array | string): void {
    const text = typeof chunk === "string" ? chunk : this.decoder.write(chunk);
    let start = 0;
    for (;;) {
      const newline = text.indexOf("\n", start);
      if (newline === -1) {
        this.keep(text, start);
        return;
      }
      if (this.discarding) {
        this.discarding = false;
      } else {
        const line =
          this.pending.length === 0 ? text.slice(start, newline) : this.pending + text.slice(start, newline);
        this.pending = "";
        this.line(line);
      }
      start = newline + 1;
    }
  }

  /** Ends the stream: a last line without a newline still counts. */
  end(): void {
    const rest = this.pending + this.decoder.end();
    this.pending = "";
    if (!this.discarding) this.line(rest);
    this.discarding = false;
  }

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
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (line.length > this.maxMessageSize) {
      this.tooLong(line);
      return;
    }
    if (line.trim().length === 0) return;
    let value: unknown;
    try {
      value = JSON.parse(line);
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
export function serializeMessage(message: unknown): string {
  return `${JSON.stringify(message)}\n`;
}
