import { ErrorCode, McpError } from "../jsonrpc/errors.js";
import type { CallToolResult } from "../protocol/types/tools.js";

/** What the proxy lets through from each upstream, so one cannot hurt the others or the client. */
export interface UpstreamLimits {
  /**
   * The largest tool result passed on, in bytes of JSON; a larger one is an error. Default 16 MiB.
   * An upstream's response more than 64 KiB over it (a stdio upstream's line, an HTTP upstream's
   * JSON body) is refused as it arrives, unparsed, so it neither fills the proxy's memory nor holds
   * up its other calls; this bounds the upstreams' other responses (resource reads, lists) the same
   * way. (An HTTP upstream's answer sent as an event stream is only checked once parsed.)
   */
  maxResultSize?: number;
  /** The most calls in flight to one upstream; the others wait their turn. Default 16. */
  maxConcurrency?: number;
  /** The most calls waiting for one upstream; one more is refused at once. Default 256. */
  maxQueued?: number;
}

const DEFAULT_MAX_RESULT_SIZE = 16 * 1024 * 1024;
/** What a response adds around its result (`{"jsonrpc":"2.0","id":…,"result":…}`), with room to spare. */
const RESPONSE_ENVELOPE = 64 * 1024;

/** The longest response an upstream may send, in bytes: past it, its result is over `maxResultSize`, surely. */
export function maxResponseBytes(limits: UpstreamLimits): number {
  return (limits.maxResultSize ?? DEFAULT_MAX_RESULT_SIZE) + RESPONSE_ENVELOPE;
}

/** How much of an upstream error's `message` and `data` is passed on. */
const MAX_ERROR_MESSAGE = 1024;
const MAX_ERROR_DATA = 4096;

/** The calls in flight to one upstream: at most `maxConcurrency`, then a bounded queue. */
export class UpstreamGate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly server: string,
    private readonly limits: UpstreamLimits,
  ) {}

  /** Runs `call` when the upstream has room; refuses at once when too many already wait. */
  async run<T>(call: () => Promise<T>): Promise<T> {
    await this.enter();
    try {
      return await call();
    } finally {
      this.leave();
    }
  }

  /**
   * Takes a place for one call: `undefined` at once when the upstream has room (no promise to wait
   * on, the usual case), else a wait for a place, which rejects at once when too many already wait,
   * and leaves the queue when `signal` aborts (the caller cancelled), rejecting with its reason.
   * Each entry that resolves is followed by one `leave`.
   */
  enter(signal?: AbortSignal): Promise<void> | undefined {
    if (this.running < (this.limits.maxConcurrency ?? 16)) {
      this.running++;
      return undefined;
    }
    if (this.waiting.length >= (this.limits.maxQueued ?? 256)) {
      return Promise.reject(
        new McpError(
          ErrorCode.ServerError,
          `Upstream ${this.server} is busy: ${this.running} calls in flight and ${this.waiting.length} waiting; try again later`,
        ),
      );
    }
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<void>((resolve, reject) => {
      const cancelled = () => {
        const at = this.waiting.indexOf(admit);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(signal!.reason);
      };
      // The place is taken when it is given, so no call entering meanwhile can take it first.
      const admit = () => {
        signal?.removeEventListener("abort", cancelled);
        this.running++;
        resolve();
      };
      signal?.addEventListener("abort", cancelled, { once: true });
      this.waiting.push(admit);
    });
  }

  /** Gives up the place `enter` took, to the next call waiting if any. */
  leave(): void {
    this.running--;
    this.waiting.shift()?.();
  }
}

/**
 * A bound on the bytes of `value`'s JSON (never fewer), found without serializing it: a string's
 * characters take at most 6 bytes each (`\u001f`), a number at most 24.
 */
function jsonSizeBound(value: unknown): number {
  let size = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const next = stack.pop();
    if (typeof next === "string") size += 6 * next.length + 2;
    else if (typeof next !== "object" || next === null) size += 24;
    else if (Array.isArray(next)) {
      size += 2 + next.length;
      for (const item of next) stack.push(item);
    } else {
      size += 2;
      for (const key in next) {
        size += 6 * key.length + 4;
        stack.push((next as Record<string, unknown>)[key]);
      }
    }
  }
  return size;
}

/**
 * The result's size in bytes of JSON, `undefined` when it is surely under `maxResultSize` (most
 * results: serializing each only to measure it was a good part of the proxy's work per call), or
 * an error saying it is over.
 */
export function checkResultSize(
  server: string,
  tool: string,
  result: CallToolResult,
  limits: UpstreamLimits,
): number | undefined {
  const max = limits.maxResultSize ?? DEFAULT_MAX_RESULT_SIZE;
  if (jsonSizeBound(result) <= max) return undefined;
  const size = Buffer.byteLength(JSON.stringify(result));
  if (size <= max) return size;
  throw new McpError(
    ErrorCode.InternalError,
    `The result of ${server}/${tool} is ${size} bytes, more than the proxy passes on (maxResultSize ${max}); a larger maxResultSize lets it through`,
    { size, maxResultSize: max },
  );
}

/**
 * The error of a call whose response the upstream's transport skipped unread for its size
 * (`data: { size, maxMessageBytes }`, see `maxResponseBytes`), in the proxy's words; any other
 * error as it is.
 */
export function skippedResultError(
  server: string,
  tool: string,
  error: unknown,
  limits: UpstreamLimits,
): unknown {
  if (!(error instanceof McpError) || error.code !== ErrorCode.InternalError) return error;
  const data = error.data as { size?: unknown; maxMessageBytes?: unknown } | undefined;
  if (typeof data?.size !== "number" || typeof data.maxMessageBytes !== "number") return error;
  const max = limits.maxResultSize ?? DEFAULT_MAX_RESULT_SIZE;
  return new McpError(
    ErrorCode.InternalError,
    `The result of ${server}/${tool} is more than the proxy passes on (maxResultSize ${max}): its response is ${data.size} bytes, refused unread; a larger maxResultSize lets it through`,
    { size: data.size, maxResultSize: max },
  );
}

/** An upstream's error as passed on: its code, its message and `data` cut to a bounded size. */
export function boundedError(error: unknown): unknown {
  if (!(error instanceof McpError)) return error;
  const message =
    error.message.length > MAX_ERROR_MESSAGE
      ? `${error.message.slice(0, MAX_ERROR_MESSAGE)}… (cut)`
      : error.message;
  let data = error.data;
  if (data !== undefined) {
    const text = typeof data === "string" ? data : JSON.stringify(data);
    if (text !== undefined && text.length > MAX_ERROR_DATA) {
      data = { truncated: true, size: text.length, excerpt: text.slice(0, MAX_ERROR_DATA) };
    }
  }
  if (message === error.message && data === error.data) return error;
  return new McpError(error.code, message, data);
}
