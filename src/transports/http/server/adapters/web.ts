import {
  BodyTimeoutError,
  BodyTooLargeError,
  type HttpExchange,
  type SseSink,
} from "../../shared/exchange.js";

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
          await reader.cancel();
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

  openStream(headers: Record<string, string>): SseSink {
    const encoder = new TextEncoder();
    const listeners: (() => void)[] = [];
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    let closed = false;
    const close = () => {
      if (closed) return;
      closed = true;
      for (const listener of listeners) listener();
    };
    const body = new ReadableStream<Uint8Array>({
      start: (c) => {
        controller = c;
      },
      cancel: close,
    });
    this.request.signal?.addEventListener("abort", close, { once: true });
    this.resolve(new Response(body, { status: 200, headers }));
    return {
      write: (text) => {
        if (!closed) controller.enqueue(encoder.encode(text));
      },
      end: () => {
        if (!closed) controller.close();
        close();
      },
      get closed() {
        return closed;
      },
      onClose: (listener) => {
        if (closed) listener();
        else listeners.push(listener);
      },
    };
  }
}
