import type { MessageTrace } from "../protocol/engine/peer.js";
import type { CacheHint } from "../protocol/eras/era.js";
import type { Implementation } from "../protocol/types/base.js";
import type { ServerExtension } from "./dispatch/extension.js";
import type { RateLimitOptions } from "./dispatch/rate-limit.js";
import type { WebHandlerOptions } from "./serving/http.js";

/** Who the server is, and what it tells clients about using it. */
export interface ServerInfo extends Implementation {
  /** Sent in the `initialize` result: how to use this server. */
  instructions?: string;
}

export interface ServerOptions {
  /** Items per page of list results. Default 1000. */
  pageSize?: number;
  /** Rate limits on tool calls, per caller and tool; unset, none. */
  rateLimit?: RateLimitOptions;
  /** The most `subscriptions/listen` streams open at once (2026-07-28); one more is -32600. Default 1000. */
  maxListenStreams?: number;
  /**
   * The longest resource URI matched against resource templates; a longer one is -32602.
   * Default 8192 characters.
   */
  maxUriLength?: number;
  /** Timeout of requests the server sends (sampling, elicitation, roots), ms. Default 60 s. */
  requestTimeout?: number;
  /** Sees every message of every session. */
  trace?: MessageTrace;
  /** Protocol versions to accept, newest first. Default: every version, both eras. */
  supportedVersions?: readonly string[];
  /** Caching hints of list and read results (2026-07-28). Default `{ ttlMs: 0, cacheScope: "private" }`. */
  cache?: Partial<CacheHint>;
  /**
   * The key that signs the `requestState` of multi round-trip requests. Default: random per
   * process; give every replica behind a load balancer the same one.
   */
  requestStateSecret?: string | Uint8Array;
  /**
   * How long a `requestState` stays valid, in ms (default 10 minutes); an older one is -32602.
   * Within that time it can be replayed: handlers with side effects must not count on one use.
   */
  requestStateTtl?: number;
  /** Declare these capabilities even before anything of the kind is registered. */
  capabilities?: { tools?: boolean; resources?: boolean; prompts?: boolean; completions?: boolean };
  /** Options of the web handler `server.fetch`; `auth` protects it (give its `resource`). */
  http?: WebHandlerOptions;
  /**
   * List only the tools, resources and prompts whose `scopes` the caller's token grants. Default
   * false: everything is listed, and what needs a scope the caller lacks is refused when used.
   */
  hideUnauthorized?: boolean;
  /**
   * Extensions the server speaks (`tasks()` of `mcpkit/extensions/tasks`…): each declares
   * `capabilities.extensions[id]`, adds its methods and may run around existing ones.
   */
  extensions?: readonly ServerExtension[];
}
