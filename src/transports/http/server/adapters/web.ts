import {
  BodyTimeoutError,
  BodyTooLargeError,
  type HttpExchange,
  type SseSink,
} from "../../shared/exchange.js";
import { overflows, type StreamBuffer, type StreamOverflow } from "../../shared/stream-buffer.js";

/**
 * An exchange over a web `Request`; `response` resolves with the `Response` once the handler has
 * decided on it (a complete body, or a stream it keeps writing to).
 */
export class WebExchange implements HttpExchange {
  readonly method: string;
  readonly url: string;
  readonly response: Promise<Response>;
  private resolve!: (response: Response) => void;

  constructor(private readonly request: Request) {
    this.method = request.method;
    const url = new URL(request.url);
    this.url = url.pathname + url.search;
    this.response = new Promise((resolve) => {
      this.resolve = resolve;
    });
  }

  header(name: string): string | undefined {
    return this.request.headers.get(name) ?? undefined;
  }

  headerCount(name: string): number {
    const value = this.request.headers.get(name);
    return value === null ? 0 : value.split(",").length;
  }

  async readBody(limit: number, timeout = 0): Promise<string> {
    if (Number(this.request.headers.get("content-length")) > limit) throw new BodyTooLargeError(limit);
    if (!this.request.body) return "";
    const reader = this.request.body.getReader();
    let late = false;
    const timer =
      timeout > 0
        ? setTimeout(() => {
            late = true;
            void reader.cancel().catch(() => {});
          }, timeout)
        : undefined;
    const chunks: Uint8Array[] = [];
    let size = 0;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (late) throw new BodyTimeoutError(timeout);
        if (done) break;
        size += value.byteLength;
        if (size > limit) {
          // Not awaited: a source may settle its cancel late or never, and the 413 must not wait.
          void reader.cancel().catch(() => {});
          throw new BodyTooLargeError(limit);
        }
        chunks.push(value);
      }
    } finally {
      clearTimeout(timer);
    }
    return Buffer.concat(chunks).toString("utf8");
  }

  onAbort(listener: () => void): void {
    this.request.signal?.addEventListener("abort", listener, { once: true });
  }

  respond(status: number, headers: Record<string, string>, body?: string): void {
    this.resolve(new Response(status === 202 || body === undefined ? null : body, { status, headers }));
  }

  openStream(headers: Record<string, string>, limit: StreamBuffer): SseSink {
    const encoder = new TextEncoder();
    const listeners: (() => void)[] = [];
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    let closed = false;
    let overflow: StreamOverflow | undefined;
    // Chunks wait here, counted, until the server reading the body asks for one: the stream's own
    // queue would hide how much the client left unread.
    const queue: Uint8Array[] = [];
    let queuedBytes = 0;
    /** A read waits for the next chunk. */
    let wanted = false;
    let waiters: (() => void)[] = [];
    const wake = () => {
      const woken = waiters;
      waiters = [];
      for (const waiter of woken) waiter();
    };
    const close = () => {
      if (closed) return;
      closed = true;
      for (const listener of listeners) listener();
      wake();
    };
    const body = new ReadableStream<Uint8Array>(
      {
        start: (c) => {
          controller = c;
        },
        pull: (c) => {
          const chunk = queue.shift();
          if (chunk === undefined) {
            wanted = true;
            return;
          }
          queuedBytes -= chunk.byteLength;
          c.enqueue(chunk);
          if (queue.length === 0) wake();
        },
        cancel: close,
      },
      { highWaterMark: 0 },
    );
    this.request.signal?.addEventListener("abort", close, { once: true });
    this.resolve(new Response(body, { status: 200, headers }));
    return {
      write: (text) => {
        if (closed) return;
        const chunk = encoder.encode(text);
        if (wanted) {
          wanted = false;
          controller.enqueue(chunk);
          return;
        }
        if (overflows(limit, queuedBytes, queue.length, chunk.byteLength)) {
          overflow = { bytes: queuedBytes, events: queue.length };
          queue.length = 0;
          queuedBytes = 0;
          controller.error(new Error("the client did not read its event stream"));
          close();
          return;
        }
        queue.push(chunk);
        queuedBytes += chunk.byteLength;
      },
      end: () => {
        if (!closed) {
          // What is queued is still read, then the body ends.
          for (const chunk of queue.splice(0)) controller.enqueue(chunk);
          queuedBytes = 0;
          controller.close();
        }
        close();
      },
      get closed() {
        return closed;
      },
      get overflow() {
        return overflow;
      },
      onClose: (listener) => {
        if (closed) listener();
        else listeners.push(listener);
      },
      drained: () =>
        closed || queue.length === 0
          ? Promise.resolve()
          : new Promise<void>((resolve) => waiters.push(resolve)),
    };
  }
}
