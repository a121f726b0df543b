import type { IncomingMessage, ServerResponse } from "node:http";
import {
  BodyTimeoutError,
  BodyTooLargeError,
  type HttpExchange,
  type SseSink,
} from "../../shared/exchange.js";
import { overflows, type StreamBuffer, type StreamOverflow } from "../../shared/stream-buffer.js";
import { bodyDeadline, clearBodyDeadline } from "./body-deadlines.js";

/** An exchange over `node:http` objects: no web `Request`/`Response` on this path. */
export class NodeExchange implements HttpExchange {
  readonly method: string;
  readonly url: string;
  /** Whether the body was left unread (too large, too slow): the answer then closes the connection. */
  private bodyLeft = false;

  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
  ) {
    this.method = req.method ?? "GET";
    this.url = req.url ?? "/";
  }

  header(name: string): string | undefined {
    const value = this.req.headers[name];
    return Array.isArray(value) ? value.join(", ") : value;
  }

  headerCount(name: string): number {
    // node keeps only the first of some repeated headers (content-type among them) in `headers`,
    // so the raw list is counted; `headersDistinct` would build an object of every header per request.
    const raw = this.req.rawHeaders;
    let count = 0;
    for (let i = 0; i < raw.length; i += 2) {
      const key = raw[i]!;
      if (key.length === name.length && (key === name || sameLowerCase(key, name))) count++;
    }
    return count;
  }

  readBody(limit: number, timeout = 0): Promise<string> {
    const declared = Number(this.req.headers["content-length"]);
    if (declared > limit) {
      this.leaveBody();
      return Promise.reject(new BodyTooLargeError(limit));
    }
    return new Promise((resolve, reject) => {
      const req = this.req;
      const chunks: Buffer[] = [];
      let size = 0;
      const stop = (error: Error) => {
        if (deadline) clearBodyDeadline(deadline);
        req.removeAllListeners("data");
        this.leaveBody();
        reject(error);
      };
      const deadline =
        timeout > 0 ? bodyDeadline(timeout, () => stop(new BodyTimeoutError(timeout))) : undefined;
      req.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > limit) return stop(new BodyTooLargeError(limit));
        chunks.push(chunk);
      });
      req.once("end", () => {
        if (deadline) clearBodyDeadline(deadline);
        resolve(chunks.length === 1 ? chunks[0]!.toString("utf8") : Buffer.concat(chunks).toString("utf8"));
      });
      req.once("error", (error) => {
        if (deadline) clearBodyDeadline(deadline);
        reject(error);
      });
    });
  }

  /**
   * Stops reading a body that will not be read to its end. Draining it instead would read on for
   * as long as the client sends (a chunked body need never end), so the connection, which cannot
   * carry another request before the body's end, is closed once the answer is written.
   */
  private leaveBody(): void {
    this.bodyLeft = true;
    this.req.pause();
  }

  onAbort(listener: () => void): void {
    // A response closes once: `on` spares the wrapper `once` makes on every stateless request.
    this.res.on("close", () => {
      if (!this.res.writableFinished) listener();
    });
  }

  respond(status: number, headers: Record<string, string>, body?: string): void {
    if (this.res.headersSent) return;
    if (body !== undefined) headers["content-length"] = String(Buffer.byteLength(body));
    if (this.bodyLeft) headers.connection = "close";
    this.res.writeHead(status, headers);
    this.res.end(body);
  }

  openStream(headers: Record<string, string>, limit: StreamBuffer): SseSink {
    const res = this.res;
    res.writeHead(200, headers);
    res.flushHeaders();
    this.req.socket.setNoDelay(true);
    const listeners: (() => void)[] = [];
    let closed = false;
    let overflow: StreamOverflow | undefined;
    // Writes the network has not taken yet: a write's callback runs once the kernel has it.
    let queued = 0;
    let waiters: (() => void)[] = [];
    const wake = () => {
      const woken = waiters;
      waiters = [];
      for (const waiter of woken) waiter();
    };
    const taken = () => {
      if (--queued === 0) wake();
    };
    const close = () => {
      if (closed) return;
      closed = true;
      for (const listener of listeners) listener();
      wake();
    };
    res.once("close", close);
    return {
      write: (text) => {
        if (closed) return;
        const size = Buffer.byteLength(text);
        // `writableLength` is what the response and its socket hold beyond the kernel, chunk
        // framing included; this write adds its own framing too (hex length, two CRLFs).
        if (overflows(limit, res.writableLength, queued, size + size.toString(16).length + 4)) {
          overflow = { bytes: res.writableLength, events: queued };
          res.destroy();
          close();
          return;
        }
        queued++;
        res.write(text, taken);
      },
      end: () => {
        if (!closed) res.end();
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
        closed || queued === 0 ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve)),
    };
  }
}

/**
 * Whether a header name is `lower` (lower-case letters, digits and dashes) in any case, without
 * making a lower-case copy of every header of the same length. Setting bit 0x20 lowers a letter and
 * leaves digits and dashes alone; the only other characters it maps onto them are controls, which
 * node's parser refuses in a name.
 */
function sameLowerCase(key: string, lower: string): boolean {
  for (let i = 0; i < lower.length; i++) {
    if ((key.charCodeAt(i) | 0x20) !== lower.charCodeAt(i)) return false;
  }
  return true;
}
