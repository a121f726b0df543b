import type { McpError } from "../../jsonrpc/errors.js";
import type { Era } from "../revisions/revision.js";
import type { RequestMeta } from "../types/lifecycle.js";

/** How long, and for whom, a client or intermediary may cache a result (SEP-2549). */
export interface CacheHint {
  ttlMs: number;
  cacheScope: "public" | "private";
}

/** What a server puts on the results it sends statelessly. */
export interface ResultStamp {
  /** The server's identity, as the `_meta` of every result (serialized once). */
  serverMeta: Readonly<Record<string, unknown>>;
  /** The caching hints, for results that carry them. */
  cache: CacheHint | undefined;
}

/**
 * One era of the protocol as an object: the handshake era (`legacy`: `initialize`, negotiation,
 * sessions) or the stateless one (`modern`: the sender in every request's `_meta`, stamped
 * results). Code that serves both asks the era of a request instead of branching on versions.
 */
export interface ProtocolEra {
  readonly name: Era;
  /** The versions of this era mcpkit speaks, newest first. */
  readonly versions: readonly string[];
  /**
   * Whether a request for `method` is let through, or why not. `version` is the request's own
   * (stateless) or the session's negotiated one (`undefined` before `initialize`); `supported`
   * the versions the server accepts; `extended` whether an extension serves a method the
   * revision lacks (let through: the extension answers or refuses it).
   */
  admit(
    method: string,
    version: string | undefined,
    supported: readonly string[],
    extended?: (method: string) => boolean,
  ): McpError | undefined;
  /** The sender's identity a request carries in `_meta` (-32602 when malformed); none in sessions. */
  readMeta(params: Record<string, unknown> | undefined): RequestMeta | undefined;
  /** A result as this era sends it. */
  decorate(method: string, result: object, stamp: ResultStamp): object;
  /** An error as this era sends it. */
  mapError(error: unknown): unknown;
  /**
   * For a request whose handler may ask the client for input within the request (multi
   * round-trip), what names the subject of its questions; `undefined` for the others.
   */
  askSubject(method: string): ((params: Record<string, unknown>) => unknown) | undefined;
  /** Whether results of `method` carry caching hints. */
  cacheable(method: string): boolean;
}
