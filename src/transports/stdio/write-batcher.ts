import type { Writable } from "node:stream";

/**
 * How many messages of a burst a stdio transport handles before it lets the answers so far be
 * written (see `NdjsonDecoderOptions.messagesPerTurn`).
 */
export const MESSAGES_PER_TURN = 32;

/**
 * Where a flush is scheduled. Not `queueMicrotask`, which in Node wraps every callback in an
 * `AsyncResource` and a bound function: a resolved promise's reaction costs a fraction of that.
 */
const resolved = Promise.resolve();

/**
 * Joins everything written in one tick into a single `write` call: a burst of 1,000 messages
 * costs one syscall, not 1,000.
 */
export class WriteBatcher {
  /** What was written since the last flush (concatenated; flattened once, by the write). */
  private pending = "";
  private scheduled = false;
  private ended = false;
  private held = 0;

  constructor(
    private readonly stream: Writable,
    private readonly writeFn: (text: string) => void = (text) => {
      stream.write(text);
    },
  ) {}

  write(text: string): void {
    if (this.ended) return;
    this.pending = this.pending.length === 0 ? text : this.pending + text;
    if (!this.scheduled && this.held === 0) {
      this.scheduled = true;
      resolved.then(this.flush);
    }
  }

  /** Holds what is written until `release()` (while a chunk of requests is read). */
  hold(): void {
    this.held++;
  }

  /**
   * Ends a `hold()`: what was written meanwhile (the answers to requests answered synchronously)
   * goes out now, in one write, rather than a microtask later. Later writes are batched as usual.
   */
  release(): void {
    if (--this.held === 0 && !this.scheduled) this.flush();
  }

  /** Writes what is queued now. */
  readonly flush = (): void => {
    this.scheduled = false;
    const text = this.pending;
    if (text.length === 0) return;
    this.pending = "";
    this.writeFn(text);
  };

  /** Flushes, then ends the stream. */
  end(): void {
    if (this.ended) return;
    this.flush();
    this.ended = true;
    this.stream.end();
  }
}
