import type { RequestId } from "../../jsonrpc/messages.js";
import type { Era } from "../../protocol/revisions/revision.js";
import type { AuthInfo } from "../../protocol/transport.js";
import type { Meta, PaginatedRequestParams } from "../../protocol/types/base.js";
import type { CompleteRequestParams, CompleteResult } from "../../protocol/types/completion.js";
import type { InitializeRequestParams, InitializeResult } from "../../protocol/types/lifecycle.js";
import type { GetPromptResult, ListPromptsResult } from "../../protocol/types/prompts.js";
import type {
  ListResourcesResult,
  ListResourceTemplatesResult,
  ReadResourceResult,
} from "../../protocol/types/resources.js";
import type { CallToolRequestParams, CallToolResult, ListToolsResult } from "../../protocol/types/tools.js";
import type { RequestContext } from "../sessions/context.js";
import type { ServerSession } from "../sessions/session.js";

/** The params and result of the requests a server answers, for typed per-method middleware. */
export interface ServerRequestTypes {
  initialize: { params: InitializeRequestParams; result: InitializeResult };
  "tools/list": { params: PaginatedRequestParams; result: ListToolsResult };
  "tools/call": { params: CallToolRequestParams; result: CallToolResult };
  "resources/list": { params: PaginatedRequestParams; result: ListResourcesResult };
  "resources/templates/list": { params: PaginatedRequestParams; result: ListResourceTemplatesResult };
  "resources/read": { params: { uri: string }; result: ReadResourceResult };
  "resources/subscribe": { params: { uri: string }; result: object };
  "resources/unsubscribe": { params: { uri: string }; result: object };
  "prompts/list": { params: PaginatedRequestParams; result: ListPromptsResult };
  "prompts/get": { params: { name: string; arguments?: Record<string, string> }; result: GetPromptResult };
  "completion/complete": { params: CompleteRequestParams; result: CompleteResult };
  "logging/setLevel": { params: { level: string }; result: object };
}

/** The params a middleware of `M` sees: typed for the methods above, a record otherwise. */
export type ServerParamsOf<M extends string> = (M extends keyof ServerRequestTypes
  ? ServerRequestTypes[M]["params"]
  : Record<string, unknown>) & { _meta?: Meta };

/**
 * What `next()` of a middleware of `M` resolves with: the typed result for the methods above, an
 * object for other requests, `undefined` for notifications.
 */
export type ServerResultOf<M extends string> = M extends keyof ServerRequestTypes
  ? ServerRequestTypes[M]["result"]
  : object | undefined;

/**
 * What a server middleware sees of one incoming request or notification. `params` may be
 * replaced (or changed) before `next()`: the handler gets what it holds then.
 */
export class ServerMiddlewareContext<M extends string = string> {
  constructor(
    /** `request`, or `notification` (whose `next()` resolves with `undefined`). */
    readonly kind: "request" | "notification",
    /** The JSON-RPC method. */
    readonly method: M,
    /** The params the handler will get. */
    public params: ServerParamsOf<M>,
    /** The connection it arrived on. */
    readonly session: ServerSession,
    /** The handler's context (requests only): progress, logging, elicitation, the abort signal. */
    readonly request: RequestContext | undefined,
  ) {}

  /** The message's `_meta`: trace context, progress token, and in 2026-07-28 the client's identity. */
  get meta(): Readonly<Meta> | undefined {
    return this.params._meta;
  }

  /** `modern` for a stateless (2026-07-28) request, `legacy` for one of a handshake session. */
  get era(): Era {
    return this.request?.request.requestMeta ? "modern" : "legacy";
  }

  /** The HTTP session id (Streamable HTTP with sessions); `undefined` on stdio and statelessly. */
  get sessionId(): string | undefined {
    return this.session.peer.transport.sessionId;
  }

  /** Who sent it, verified from its access token (HTTP with `auth`); `undefined` otherwise. */
  get auth(): AuthInfo | undefined {
    return this.request?.auth;
  }

  /** The JSON-RPC id of a request. */
  get requestId(): RequestId | undefined {
    return this.request?.requestId;
  }
}

/**
 * A server middleware: runs around the handler of every incoming request (after the era's
 * admission and the capability and scope checks) and notification it applies to. `await next()`
 * gives the result, or throws the handler's error; a middleware may return its own result or
 * throw its own error instead, and may rewrite `ctx.params` first.
 *
 * @example
 * server.use(async (ctx, next) => {
 *   const started = performance.now();
 *   try { return await next(); } finally { console.error(ctx.method, performance.now() - started); }
 * });
 */
export type ServerMiddleware<M extends string = string> = (
  ctx: ServerMiddlewareContext<M>,
  next: () => Promise<ServerResultOf<M>>,
) => ServerResultOf<M> | Promise<ServerResultOf<M>>;

/** The notifications a client sends a server; server middleware sees them. */
export const CLIENT_NOTIFICATIONS = [
  "notifications/initialized",
  "notifications/cancelled",
  "notifications/progress",
  "notifications/roots/list_changed",
] as const;
