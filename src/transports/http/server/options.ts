import type { HttpAuthHooks } from "../shared/authenticate.js";
import type { HttpExchange } from "../shared/exchange.js";
import type { OriginPolicy } from "../shared/origin.js";
import type { StreamBuffer, StreamBufferLimit } from "../shared/stream-buffer.js";
import type { EventStore } from "./event-store.js";
import type { ParamHeaders } from "./modern-headers.js";
import type { Replication } from "./replication.js";
import type { ResponseMode, StreamOptions } from "./stream.js";

/** Options of the Streamable HTTP endpoint. */
export interface StreamableHttpOptions extends OriginPolicy {
  /**
   * Serve the handshake era (2025) without sessions: no `Mcp-Session-Id`, every POST is served on
   * its own (a request without `initialize` speaks its `MCP-Protocol-Version`), the server asks the
   * client nothing, and GET and DELETE answer 405. Requests of the stateless era (2026-07-28) are
   * served as always.
   */
  sessionless?: boolean;
  /** `auto` (default): JSON, or SSE as soon as a request sends something before its response. */
  responseMode?: ResponseMode;
  /** Where stream events are kept for `Last-Event-ID` resumption; `false` disables it. Default in memory. */
  eventStore?: EventStore | false;
  /** Sent as the SSE `retry` field: how soon a client should come back to a closed stream, in ms. Default 1000. */
  retryInterval?: number;
  /** Comment lines on idle streams, in ms; 0 disables. Default 15 s. */
  keepAliveInterval?: number;
  /**
   * How much each outgoing event stream (a GET stream, a POST's answer) may hold for a client that
   * does not read it, beyond what the network took: past it the stream is closed and a warning
   * logged (`onWarning`). A resumable stream's events stay in the event store, so the client gets
   * what it missed by reconnecting with `Last-Event-ID`. Default 8 MiB and 10,000 events.
   */
  maxStreamBuffer?: StreamBufferLimit;
  /**
   * Told of what the server does about a misbehaving client, such as a stream closed past
   * `maxStreamBuffer`. Default: written to stderr (`console.warn`).
   */
  onWarning?: (message: string) => void;
  /** A session unused this long ends, in ms. Default 30 minutes. */
  sessionIdleTimeout?: number;
  /** The most sessions (each with at most one GET stream) open at once; one more is 503. Default 10,000. */
  maxSessions?: number;
  /** Largest request body, in bytes. Default 4 MiB. */
  maxBodySize?: number;
  /**
   * How long a request body may take to arrive, in ms; a slower one is answered 408 and its
   * connection closed. Default 30 s; 0 disables. Responses (event streams) are not limited.
   */
  bodyTimeout?: number;
  /** Who makes the request (from its credentials); a session stays bound to whoever opened it. */
  principalOf?: (exchange: HttpExchange) => string | undefined;
  /**
   * Checks every request's credentials before anything else, and each message against what the
   * caller may do (a protected resource, see `mcpkit/server`'s `auth`). The verified caller is bound
   * to the sessions it opens (in place of `principalOf`) and reaches handlers as `ctx.auth`.
   */
  auth?: HttpAuthHooks;
  /** For each tool, the `Mcp-Param-*` headers its arguments are mirrored in (2026-07-28). */
  paramHeaders?: ParamHeaders;
  /**
   * Serve as one of several interchangeable replicas: sessions, stream events and messages between
   * replicas are kept in these shared stores (see `mcpkit/redis`), so any replica serves any request.
   */
  replication?: Replication;
}

/**
 * What a stream of session `sessionId` is made with, from the endpoint's options. A stream of no
 * session (a stateless request's, or a sessionless one's) ends with its POST and cannot be resumed.
 */
export function streamOptionsOf(
  options: StreamableHttpOptions,
  eventStore: EventStore | undefined,
  maxBuffer: StreamBuffer,
  sessionId: string | undefined,
): StreamOptions {
  const sessionless = sessionId === undefined;
  const headers: Record<string, string> = sessionless ? {} : { "mcp-session-id": sessionId };
  return {
    responseMode: options.responseMode ?? "auto",
    eventStore: sessionless ? undefined : eventStore,
    // Streams of no session cannot be resumed, so they announce no retry interval.
    retryInterval: sessionless ? undefined : (options.retryInterval ?? 1000),
    keepAliveInterval: options.keepAliveInterval ?? 15_000,
    headers: () => headers,
    closeWhenAnswered: sessionless,
    maxBuffer,
    warn: options.onWarning,
  };
}
