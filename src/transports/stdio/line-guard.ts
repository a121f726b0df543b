/**
 * A bound on the bytes of each line a server writes, counted before anything is decoded, so a line
 * over it is skipped as it arrives: never decoded, kept whole or parsed. Only its first and last
 * bytes are kept, enough to find the request it answers.
 */

/** A line the guard skipped. */
export interface SkippedLine {
  /** Its length in bytes, without the newline. */
  bytes: number;
  /** Its first bytes (at most `EDGE`), as text. */
  head: string;
  /** Its last bytes (at most `EDGE`), as text. */
  tail: string;
}

/** How much of each end of a skipped line is kept: a response's `id` and its neighbours fit. */
const EDGE = 512;
const NEWLINE = 10;

/**
 * Passes on, to `forward`, the bytes of the lines of at most `limit` bytes, in order (a line may
 * come in several pieces, as chunks cut it); reports each longer line to `skipped` when its newline
 * arrives. Nothing of a line is passed on before it is known to be short enough, so what it holds
 * is bounded by `limit` (the start of a line not yet ended) and `2 × EDGE` (the ends of a line
 * being skipped).
 */
export class LineGuard {
  /** The start of the current line, not passed on until its newline shows it is short enough. */
  private held: Buffer[] = [];
  private heldBytes = 0;
  /** The line being skipped, if any. */
  private skipping: { bytes: number; head: Buffer; tail: Buffer } | undefined;

  constructor(
    private readonly limit: number,
    private readonly forward: (bytes: Buffer) => void,
    private readonly skipped: (line: SkippedLine) => void,
  ) {}

  push(chunk: Buffer): void {
    // The usual chunk: no line under way, and no line of its own can be longer than it is.
    if (this.heldBytes === 0 && this.skipping === undefined && chunk.length <= this.limit) {
      const last = chunk.lastIndexOf(NEWLINE);
      if (last === chunk.length - 1) {
        this.forward(chunk);
        return;
      }
      if (last !== -1) this.forward(chunk.subarray(0, last + 1));
      this.hold(chunk.subarray(last + 1));
      return;
    }
    this.scan(chunk);
  }

  /** Line by line: a chunk that ends or continues a held or skipped line, or that is longer than `limit`. */
  private scan(chunk: Buffer): void {
    /** Where the lines accepted but not yet passed on begin. */
    let from = 0;
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, start);
      const end = newline === -1 ? chunk.length : newline;
      if (this.skipping === undefined && this.heldBytes + (end - start) > this.limit) {
        if (from < start) this.forward(chunk.subarray(from, start));
        this.startSkipping();
      }
      if (this.skipping !== undefined) {
        this.skip(chunk.subarray(start, end));
        if (newline === -1) return;
        this.endSkipping();
        from = newline + 1;
      } else if (newline === -1) {
        if (from < start) this.forward(chunk.subarray(from, start));
        this.hold(chunk.subarray(start));
        return;
      } else if (this.heldBytes > 0) {
        // The held start of this line goes first, then this chunk from here.
        for (const part of this.held) this.forward(part);
        this.held = [];
        this.heldBytes = 0;
      }
      start = newline + 1;
    }
    if (from < chunk.length) this.forward(chunk.subarray(from));
  }

  private hold(part: Buffer): void {
    if (part.length === 0) return;
    this.held.push(part);
    this.heldBytes += part.length;
  }

  /** The line under way is over the limit: what is held of it becomes the start of the skip. */
  private startSkipping(): void {
    this.skipping = { bytes: 0, head: Buffer.alloc(0), tail: Buffer.alloc(0) };
    const held = this.held;
    this.held = [];
    this.heldBytes = 0;
    for (const part of held) this.skip(part);
  }

  private skip(part: Buffer): void {
    const line = this.skipping!;
    line.bytes += part.length;
    if (line.head.length < EDGE) {
      line.head = Buffer.concat([line.head, part.subarray(0, EDGE - line.head.length)]);
    }
    const end = part.length > EDGE ? part.subarray(part.length - EDGE) : part;
    const tail = Buffer.concat([line.tail, end]);
    line.tail = tail.length > EDGE ? tail.subarray(tail.length - EDGE) : tail;
  }

  private endSkipping(): void {
    const { bytes, head, tail } = this.skipping!;
    this.skipping = undefined;
    // A `\r\n` ending is not part of the line.
    const cr = tail.length > 0 && tail[tail.length - 1] === 13;
    this.skipped({
      bytes: cr ? bytes - 1 : bytes,
      head: head.toString("utf8"),
      tail: (cr ? tail.subarray(0, -1) : tail).toString("utf8"),
    });
  }
}
