/**
 * How much of an outgoing event stream may wait for a client that does not read. The kernel's
 * socket buffer is not counted: only what the server holds beyond it.
 */
export interface StreamBufferLimit {
  /** The most bytes written to a stream and not yet taken by the network. Default 8 MiB. */
  bytes?: number;
  /** The most events (and keep-alive comments) written to a stream and not yet taken. Default 10,000. */
  events?: number;
}

/** What a stream closed for its client not reading held at that moment. */
export interface StreamOverflow {
  /** Bytes queued before the write that would have gone past the limit. */
  readonly bytes: number;
  /** Events queued before it. */
  readonly events: number;
}

/** A limit with its defaults filled in. */
export type StreamBuffer = Required<StreamBufferLimit>;

const DEFAULT_STREAM_BUFFER: StreamBuffer = { bytes: 8 * 1024 * 1024, events: 10_000 };

/** `limit` with the defaults for what it leaves out; rejects a limit that is not a positive integer. */
export function streamBuffer(limit: StreamBufferLimit | undefined): StreamBuffer {
  const bytes = limit?.bytes ?? DEFAULT_STREAM_BUFFER.bytes;
  const events = limit?.events ?? DEFAULT_STREAM_BUFFER.events;
  for (const [name, value] of [
    ["bytes", bytes],
    ["events", events],
  ] as const) {
    if (!Number.isSafeInteger(value) || value < 1)
      throw new RangeError(`maxStreamBuffer.${name} must be a positive integer, not ${value}`);
  }
  return { bytes, events };
}

/**
 * Whether one more write of `size` bytes would take a queue past `limit`. A write to an empty
 * queue always goes, so one event larger than the limit is still sent to a client that reads.
 */
export function overflows(limit: StreamBuffer, bytes: number, events: number, size: number): boolean {
  return events > 0 && (events + 1 > limit.events || bytes + size > limit.bytes);
}
