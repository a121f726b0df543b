/**
 * A client that stops reading its event stream: a raw `node:net` socket that sends one request,
 * reads the head of the response, then is paused and not read again until the test says so. And
 * what a server holds for it: the most any of its responses queued beyond the kernel.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { connect } from "node:net";
import { type SseEvent, SseParser } from "../../src/transports/http/shared/sse.js";

export interface SlowReader {
  /** The status line and headers of the response. */
  readonly head: string;
  /** The body read before the pause (de-chunked). */
  readonly start: string;
  /**
   * Reads again, to the end of the connection: the events received whole (the body de-chunked and
   * cut where the connection ended). Fails if the server has not closed it within `timeout` ms.
   */
  readRest(timeout?: number): Promise<SseEvent[]>;
  /** Ends the connection from this side. */
  destroy(): void;
}

export interface RawRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** Read on until the body says this, then pause (the head alone, unset). */
  waitFor?: RegExp;
}

/** Sends `request` to 127.0.0.1:`port`; resolves once the head of the response came, the socket paused. */
export function openSlowReader(port: number, request: RawRequest): Promise<SlowReader> {
  const socket = connect(port, "127.0.0.1");
  const lines = [`${request.method} ${request.path} HTTP/1.1`, `host: 127.0.0.1:${port}`];
  for (const [name, value] of Object.entries(request.headers)) lines.push(`${name}: ${value}`);
  if (request.body !== undefined) lines.push(`content-length: ${Buffer.byteLength(request.body)}`);
  socket.write(`${lines.join("\r\n")}\r\n\r\n${request.body ?? ""}`);
  return new Promise((resolve, reject) => {
    let received = Buffer.alloc(0);
    socket.once("error", reject);
    const onHead = (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf("\r\n\r\n");
      if (end < 0) return;
      const start = dechunk(received.subarray(end + 4)).toString("utf8");
      if (request.waitFor && !request.waitFor.test(start)) return;
      // From here on the client reads nothing: what the server sends waits in the kernel, then in the server.
      socket.pause();
      socket.off("data", onHead);
      const head = received.toString("latin1", 0, end);
      const body = received.subarray(end + 4);
      resolve({
        head,
        start,
        destroy: () => socket.destroy(),
        readRest: (timeout = 60_000) =>
          new Promise((done, fail) => {
            const timer = setTimeout(() => {
              socket.destroy();
              fail(new Error(`the server did not close the connection within ${timeout} ms`));
            }, timeout);
            const chunks: Buffer[] = [body];
            const finish = () => {
              clearTimeout(timer);
              const events: SseEvent[] = [];
              const all = dechunk(Buffer.concat(chunks)).toString("utf8");
              new SseParser((event) => void events.push(event)).push(all);
              done(events);
            };
            socket.on("data", (more: Buffer) => void chunks.push(more));
            socket.once("close", finish);
            socket.on("error", () => {});
            socket.resume();
          }),
      });
    };
    socket.on("data", onHead);
  });
}

/** A chunked body's data, up to where it was cut. */
function dechunk(body: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = body.indexOf("\r\n", at);
    if (eol < 0) break;
    const size = Number.parseInt(body.toString("latin1", at, eol), 16);
    if (!(size > 0)) break;
    const start = eol + 2;
    parts.push(body.subarray(start, Math.min(start + size, body.length)));
    at = start + size + 2;
    if (at > body.length) break;
  }
  return Buffer.concat(parts);
}

/** The most bytes any response of `server` held beyond the kernel after a write (`writableLength`). */
export function measureQueues(server: Server): { peak: number } {
  const seen = { peak: 0 };
  // Before the endpoint's own listener, so its first write is measured too.
  server.prependListener("request", (_req: IncomingMessage, res: ServerResponse) => {
    const write = res.write;
    res.write = function (this: ServerResponse, ...args: unknown[]) {
      const ok = (write as (...a: unknown[]) => boolean).apply(this, args);
      seen.peak = Math.max(seen.peak, this.writableLength);
      return ok;
    } as typeof res.write;
  });
  return seen;
}
