/** The warning logged when a stream is closed because its client did not read it. */
import type { SseSink } from "./exchange.js";
import type { StreamBuffer, StreamOverflow } from "./stream-buffer.js";

/**
 * Logs, through `warn`, the closing of `sink` past its limit, if that is how it closes; `what` names
 * the stream in the log line.
 */
export function warnOnOverflow(
  sink: SseSink,
  limit: StreamBuffer,
  what: string,
  resumable: boolean,
  warn: (message: string) => void = warnOnStderr,
): void {
  sink.onClose(() => {
    if (!sink.overflow) return;
    try {
      warn(overflowWarning(what, sink.overflow, limit, resumable));
    } catch {
      // A logger that fails does not fail the write that closed the stream.
    }
  });
}

/** The log line of a stream closed because its client did not read. */
function overflowWarning(
  what: string,
  overflow: StreamOverflow,
  limit: StreamBuffer,
  resumable: boolean,
): string {
  const then = resumable
    ? "its events stay in the event store: the client may resume it with Last-Event-ID"
    : "what was queued is dropped";
  return (
    `closed ${what}: its client did not read it, and ${overflow.bytes} bytes in ${overflow.events} ` +
    `events were waiting (maxStreamBuffer: ${limit.bytes} bytes, ${limit.events} events); ${then}`
  );
}

/** Where warnings go when no `onWarning` is given. */
function warnOnStderr(message: string): void {
  console.warn(`mcpkit: ${message}`);
}
