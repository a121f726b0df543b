import type { JSONRPCMessage, RequestId } from "../jsonrpc/messages.js";
import type { Era } from "./revisions/revision.js";
import type { RequestMeta } from "./types/lifecycle.js";

/** What a transport reports to the engine above it. */
export interface TransportHandlers {
  /**
   * A parsed JSON value arrived; the engine checks that it is a JSON-RPC message. A transport
   * that already checked it (and, for a stateless request, read its `_meta`) says so in `checked`,
   * so nothing is read twice.
   */
  onmessage(message: unknown, checked?: CheckedMessage): void;
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

/** What a transport already knows of a message it delivers. */
export interface CheckedMessage {
  /** The stateless request's `_meta`, read and found well-formed. */
  meta?: RequestMeta;
  /** Who sent it, as the transport verified from its credentials (an HTTP access token). */
  auth?: AuthInfo;
}

/**
 * A verified caller: what an access token (RFC 9068 JWT claims, or an RFC 7662 introspection
 * response) says of who presented it.
 */
export interface AuthInfo {
  /** Who the token is for: its `sub`, or the client itself for a client's own token. */
  readonly subject: string;
  /** The OAuth client the token was issued to (`client_id`, or `azp`), if it says. */
  readonly clientId: string | undefined;
  /** The scopes the token grants. */
  readonly scopes: readonly string[];
  /** The authorization server that issued it. */
  readonly issuer: string;
  /** When it expires, in seconds since the epoch, if it says. */
  readonly expiresAt: number | undefined;
  /** The thumbprint of the DPoP key the token is bound to (`cnf.jkt`), for a DPoP-bound token. */
  readonly jkt: string | undefined;
  /** Every claim: the JWT's payload, or the introspection response. */
  readonly claims: Readonly<Record<string, unknown>>;
  /**
   * The access token itself, for exchanging it for another (RFC 8693); never forward it. Not
   * enumerable, so it stays out of logs and JSON.
   */
  readonly token: string;
}

/** Said of a message a transport checked is a JSON-RPC message, and no more. */
export const CHECKED: CheckedMessage = Object.freeze({});

/** Builds the `Mcp-Param-*` headers that mirror a stateless request's arguments (SEP-2243). */
export type ParamHeaderMirror = (message: JSONRPCMessage) => Record<string, string>;

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
  /**
   * Sends the responses to a JSON-RPC batch as one array (2025-03-26). A transport without it gets
   * them one by one through `send`. Throws as `send` does.
   */
  sendBatch?(responses: JSONRPCMessage[]): void;
  /** Ends the connection and frees everything it holds. Idempotent. */
  close(): Promise<void>;

  // What some transports can do beyond that, declared here and present where they can.

  /** How it reaches its peer, for telemetry; unset for an in-memory transport. */
  readonly network?: TransportNetwork;
  /** The eras this transport carries; unset, both (the legacy HTTP+SSE transport: only `legacy`). */
  readonly eras?: readonly Era[];
  /** The session the server gave this connection (Streamable HTTP), once it gave one. */
  readonly sessionId?: string | undefined;
  /** Forgets the session, so the next request starts a new one: the server has ended it. */
  resetSession?(): void;
  /**
   * Speaks stateless revision `version` from now on, with the wire rules it has beyond the message
   * (Streamable HTTP: the version header, `Mcp-Method`, `Mcp-Param-*` mirrors).
   */
  useModern?(version: string, paramHeaders?: ParamHeaderMirror): void;
  /** Back to the handshake era's wire rules, after a stateless probe found none. */
  resetModern?(): void;
  /**
   * Ends the response stream of one incoming request now, for the client to resume
   * (resumable HTTP); whether there was one.
   */
  closeRequestStream?(requestId: RequestId): boolean;
  /**
   * The session's state shared with the other replicas of the server (Streamable HTTP on a shared
   * session store): present only where a session may be served by several processes.
   */
  readonly sharedSession?: SharedSessionState;
}

/** How a transport reaches its peer (OpenTelemetry's `network.transport`, `server.address`). */
export interface TransportNetwork {
  /** `pipe` for stdio, `tcp` for HTTP. */
  readonly transport: "pipe" | "tcp";
  /** The server's URL, on a client's HTTP transport. */
  readonly url?: URL;
}

/** Said by the stdio transports. */
export const PIPE_NETWORK: TransportNetwork = Object.freeze({ transport: "pipe" });
/** Said by the server side of the HTTP transports. */
export const TCP_NETWORK: TransportNetwork = Object.freeze({ transport: "tcp" });

/**
 * What a server keeps of a session for the other replicas serving it: set by the server, read
 * back by a replica that serves a session another one opened.
 */
export interface SharedSessionState {
  /** The state as saved when this replica joined the session; `undefined` for a new session. */
  readonly restored: Record<string, unknown> | undefined;
  /** Saves the state for every replica; the next response waits until it is kept. */
  save(state: Record<string, unknown>): void;
  /** Called with the state another replica saved. */
  onchange: ((state: Record<string, unknown>) => void) | undefined;
  /**
   * Whether this replica delivers server-wide notifications (list changes, resource updates, logs)
   * to the session: it holds the session's GET stream. Each replica delivers them to its own.
   */
  readonly deliversBroadcasts: boolean;
}
