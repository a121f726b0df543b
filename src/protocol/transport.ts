import type { JSONRPCMessage, RequestId } from "../jsonrpc/messages.js";

/** What a transport reports to the engine above it. */
export interface TransportHandlers {
  /** A parsed JSON value arrived; the engine checks that it is a JSON-RPC message. */
  onmessage(message: unknown): void;
  /** A problem that does not end the connection (for example a line that was not JSON). */
  onerror(error: Error): void;
  /**
   * The peer will send nothing more (stdin reached its end) but may still read: the engine
   * finishes the requests in flight, then closes.
   */
  oninputend(): void;
  /** The connection ended, with the reason if it was not an orderly close. Called once. */
  onclose(error?: Error): void;
}

/**
 * One bidirectional message channel: stdio, Streamable HTTP, legacy SSE or in-memory.
 * `send` queues and returns at once; a transport batches what is queued in one tick.
 */
export interface Transport {
  start(handlers: TransportHandlers): Promise<void>;
  /**
   * Queues a message. `relatedRequestId` names the incoming request it belongs to (progress, logs,
   * nested requests), so transports with one stream per request (HTTP) can route it there.
   * Throws if the transport is closed.
   */
  send(message: JSONRPCMessage, relatedRequestId?: RequestId): void;
  /** Ends the connection and frees everything it holds. Idempotent. */
  close(): Promise<void>;
}
