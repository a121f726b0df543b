import { ErrorCode, McpError } from "../../../jsonrpc/errors.js";
import type { RequestId } from "../../../jsonrpc/messages.js";
import { httpStatusError, isSessionExpired, transportError } from "../shared/client-errors.js";
import { type HttpResponse, mediaType } from "../shared/request.js";
import { SseParser } from "../shared/sse.js";

/** How lost SSE streams are resumed. */
export interface ReconnectOptions {
  /** First delay in ms when the server gave no `retry`; doubles per failed attempt. Default 1000. */
  initialDelay?: number;
  /** Longest delay between attempts, in ms. Default 30 000. */
  maxDelay?: number;
  /** Consecutive failed attempts (errors, or streams that deliver nothing) before giving up. Default 5. */
  maxRetries?: number;
}

const DEFAULT_RECONNECT: Required<ReconnectOptions> = {
  initialDelay: 1000,
  maxDelay: 30_000,
  maxRetries: 5,
};

/** The reconnect options given, with the defaults for those left out. */
export function reconnectPolicy(given: ReconnectOptions = {}): Required<ReconnectOptions> {
  return {
    initialDelay: given.initialDelay ?? DEFAULT_RECONNECT.initialDelay,
    maxDelay: given.maxDelay ?? DEFAULT_RECONNECT.maxDelay,
    maxRetries: given.maxRetries ?? DEFAULT_RECONNECT.maxRetries,
  };
}

/** What a stream needs from its transport. */
export interface StreamHost {
  readonly reconnect: Required<ReconnectOptions>;
  /** Opens a GET event stream, resuming after `lastEventId` if given. */
  get(lastEventId: string | undefined, signal: AbortSignal): Promise<OpenedStream>;
  /** Parses an event's data: `JSON.parse`, or the transport's parser that spans its streams. */
  parse(text: string): unknown;
  deliver(message: unknown): void;
  error(error: Error): void;
}

/** A GET's response, what to call it in errors, and whether it carried a session id. */
interface OpenedStream {
  response: HttpResponse;
  what: string;
  /** A 404 to a GET that carried the session id means the session expired. */
  sentSession: boolean;
}

/** How a stream ended. */
export type StreamEnd =
  | { kind: "answered" }
  | { kind: "aborted" }
  /** The server offers no GET stream (405). */
  | { kind: "unsupported" }
  | { kind: "failed"; error: McpError };

/**
 * One logical SSE stream: the response to a POSTed request (ends once that request is answered),
 * or the standalone GET stream (ends only when aborted). When the connection drops it is resumed
 * with GET and `Last-Event-ID`, after the server's `retry` delay or a growing backoff.
 */
export class SseStream {
  lastEventId: string | undefined;
  retry: number | undefined;
  private answered = false;

  constructor(
    private readonly host: StreamHost,
    private readonly signal: AbortSignal,
    /** The request whose response this stream carries; `undefined` for the standalone stream. */
    private readonly requestId?: RequestId,
  ) {}

  /** Reads `first` (if given, else starts with a GET) and every resumption until the stream is done. */
  async run(first: HttpResponse | undefined): Promise<StreamEnd> {
    const { maxRetries } = this.host.reconnect;
    let response = first;
    let failures = 0;
    let lastError: McpError | undefined;
    for (;;) {
      if (response) {
        const received = await this.consume(response);
        if (this.answered) return { kind: "answered" };
        if (this.signal.aborted) return { kind: "aborted" };
        failures = received > 0 ? 0 : failures + 1;
        if (this.requestId !== undefined && this.lastEventId === undefined) {
          return this.failed(
            `The server ended the SSE stream of request ${this.requestId} before answering it, and gave no event id to resume from`,
            // Nothing can be resumed; whether to send it again is the caller's to decide.
            { streamBroken: true, retriable: true },
          );
        }
      }
      if (failures > maxRetries) {
        return this.failed(
          `Gave up resuming the SSE stream${this.requestId === undefined ? "" : ` of request ${this.requestId}`} after ${maxRetries} failed attempts${lastError ? `: ${lastError.message}` : ""}`,
        );
      }
      if ((response || failures > 0) && !(await sleep(this.delay(failures), this.signal))) {
        return { kind: "aborted" };
      }
      response = undefined;
      let what = "GET";
      try {
        const opened = await this.host.get(this.lastEventId, this.signal);
        what = opened.what;
        const candidate = opened.response;
        if (candidate.status === 405 && this.requestId === undefined) {
          candidate.discard();
          return { kind: "unsupported" };
        }
        if (candidate.status < 200 || candidate.status >= 300) {
          const error = await httpStatusError(candidate, what, opened.sentSession);
          // No session, or no GET at all (so nothing to resume with): retrying cannot help.
          if (isSessionExpired(error) || candidate.status === 405) return { kind: "failed", error };
          throw error;
        }
        if (mediaType(candidate.header("content-type")) !== "text/event-stream") {
          candidate.discard();
          throw new Error(
            `the response is ${candidate.header("content-type") ?? "untyped"}, not an event stream`,
          );
        }
        response = candidate;
      } catch (error) {
        if (this.signal.aborted) return { kind: "aborted" };
        lastError = transportError(error, what);
        failures++;
      }
    }
  }

  /** The wait before the next attempt: the server's `retry` if it gave one, else the backoff. */
  private delay(failures: number): number {
    const { initialDelay, maxDelay } = this.host.reconnect;
    if (failures === 0) return this.retry ?? initialDelay;
    return Math.max(this.retry ?? 0, Math.min(initialDelay * 2 ** (failures - 1), maxDelay));
  }

  /** Reads one connection to its end; returns how many events it carried. */
  private async consume(response: HttpResponse): Promise<number> {
    let events = 0;
    const parser = new SseParser((event) => {
      events++;
      if (event.id !== undefined) this.lastEventId = event.id === "" ? undefined : event.id;
      if (event.retry !== undefined) this.retry = event.retry;
      // Events without data prime the stream for resumption (SEP-1699); they carry no message.
      if (event.data === "" || event.event !== "message") return;
      let message: unknown;
      try {
        message = this.host.parse(event.data);
      } catch {
        this.host.error(
          new Error(`The server sent an SSE event that is not JSON: ${event.data.slice(0, 200)}`),
        );
        return;
      }
      if (
        this.requestId !== undefined &&
        typeof message === "object" &&
        message !== null &&
        !("method" in message) &&
        (message as { id?: unknown }).id === this.requestId
      ) {
        this.answered = true;
      }
      this.host.deliver(message);
    });
    try {
      await response.read((text) => parser.push(text));
    } catch {
      // A broken connection is resumed like one the server ended.
    }
    return events;
  }

  private failed(message: string, data?: Record<string, unknown>): StreamEnd {
    return { kind: "failed", error: new McpError(ErrorCode.InternalError, message, data) };
  }
}

/** Waits `ms`; resolves `false` at once if `signal` aborts, leaving no timer behind. */
function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
