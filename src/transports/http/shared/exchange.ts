import type { Transport } from "../../../protocol/transport.js";
import type { StreamBuffer, StreamOverflow } from "./stream-buffer.js";

/**
 * One HTTP request and its response, as the Streamable HTTP handler sees it. Adapters build it from
 * `node:http` objects directly (no web `Request` conversion on that path) or from a web `Request`.
 */
export interface HttpExchange {
  readonly method: string;
  /** Path and query, as sent. */
  readonly url: string;
  /** A request header by lower-case name. */
  header(name: string): string | undefined;
  /**
   * How many times a single-valued request header was sent (a web `Request` joins repeats with
   * commas, so there a comma counts as a repeat).
   */
  headerCount(name: string): number;
  /**
   * The body as text; rejects with `BodyTooLargeError` past `limit` bytes, and with
   * `BodyTimeoutError` when it has not all arrived within `timeout` ms (0: no limit).
   */
  readBody(limit: number, timeout?: number): Promise<string>;
  /** Sends a complete response. */
  respond(status: number, headers: Record<string, string>, body?: string): void;
  /**
   * Starts an event stream response. Past `limit` (what waits beyond the network's own buffers),
   * the stream is closed at once and what it held dropped, its `overflow` set first.
   */
  openStream(headers: Record<string, string>, limit: StreamBuffer): SseSink;
  /** Called if the client goes away before the response is complete. */
  onAbort(listener: () => void): void;
}

/** The writing end of an event stream response. */
export interface SseSink {
  /** Writes already formatted SSE text. */
  write(text: string): void;
  /** Ends the response. */
  end(): void;
  /** Whether the client went away or `end` was called. */
  readonly closed: boolean;
  /** Set when the stream was closed because its client did not read it: what was then queued. */
  readonly overflow?: StreamOverflow | undefined;
  /** Called once when the stream ends, either way. */
  onClose(listener: () => void): void;
  /** Resolves once the network has taken everything written, or the stream closed. */
  drained(): Promise<void>;
}

/** The body took longer to arrive than allowed: a slow sender holds a connection for nothing. */
export class BodyTimeoutError extends Error {
  override readonly name = "BodyTimeoutError";
  constructor(readonly timeout: number) {
    super(`Request body not received within ${timeout} ms`);
  }
}

/** The body was larger than allowed. */
export class BodyTooLargeError extends Error {
  override readonly name = "BodyTooLargeError";
  constructor(readonly limit: number) {
    super(`Request body larger than ${limit} bytes`);
  }
}

/** Answers 500 with a JSON-RPC internal error, for a failure no handler caught. */
export function respondInternalError(exchange: HttpExchange, error: unknown): void {
  const message = `Internal error: ${error instanceof Error ? error.message : String(error)}`;
  exchange.respond(
    500,
    { "content-type": "application/json" },
    JSON.stringify({ jsonrpc: "2.0", error: { code: -32603, message } }),
  );
}

/** Starts a server session on a transport; `assumeVersion` skips the handshake (sessionless serving). */
export type ConnectSession = (transport: Transport, init: { assumeVersion?: string }) => Promise<void>;

/**
 * Routes served beside the MCP endpoint by the same HTTP server (the legacy HTTP+SSE transport):
 * `route` answers the exchanges it owns and returns `undefined` for the others.
 */
export interface MountedRoutes {
  route(exchange: HttpExchange, pathname: string): Promise<void> | undefined;
  close(): Promise<void>;
}
