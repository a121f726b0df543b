import type { Writable } from "node:stream";

/**
 * How many messages of a burst a stdio transport handles before it lets the answers so far be
 * written (see `NdjsonDecoderOptions.messagesPerTurn`).
 */
export const MESSAGES_PER_TURN = 32;

/**
 * Joins everything written in one tick into a single `write` call: a burst of 1,000 messages
 * costs one syscall, not 1,000.
 */
export class WriteBatcher {
  private queue: string[] = [];
  private scheduled = false;
  private ended = false;
  private held = false;

  constructor(
    private readonly stream: Writable,
    private readonly writeFn: (text: string) => void = (text) => {
      stream.write(text);
    },
  ) {}

  write(text: string): void {
    if (this.ended) return;
    this.queue.push(text);
    if (!this.scheduled && !this.held) {
      this.scheduled = true;
      queueMicrotask(this.flush);
    }
  }

  /**
   * Runs `work` (reading a chunk of requests), then writes whatever it answered at once, in one
   * write, rather than a microtask later: a request answered synchronously goes out without a
   * detour. Answers that come later are batched as usual.
   */
  holding(work: () => void): void {
    if (this.held) {
      work();
      return;
    }
    this.held = true;
    try {
      work();
    } finally {
      this.held = false;
      if (!this.scheduled) this.flush();
    }
  }

  /** Writes what is queued now. */
  readonly flush = (): void => {
    this.scheduled = false;
    const queue = this.queue;
    if (queue.length === 0) return;
    this.queue = [];
    this.writeFn(queue.length === 1 ? queue[0]! : queue.join(""));
  };

  /** Flushes, then ends the stream. */
  end(): void {
    if (this.ended) return;
    this.flush();
    this.ended = true;
    this.stream.end();
  }
}
