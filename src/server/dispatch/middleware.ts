import type { RequestId } from "../../jsonrpc/messages.js";
import { legacy } from "../../protocol/eras/legacy.js";
import { modern } from "../../protocol/eras/modern.js";
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
import type { MiddlewareDeclaration } from "./order.js";

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
 * What a server middleware sees of one message. `params` may be replaced (or changed) before
 * `next()`: the handler gets, or the client is sent, what it holds then.
 */
export class ServerMiddlewareContext<M extends string = string> {
  constructor(
    /**
     * `request` or `notification`: one the server handles (a notification's `next()` resolves
     * with `undefined`). `outgoing`: a notification or request the server is about to send the
     * client; `next()` sends it and resolves with `undefined`.
     */
    readonly kind: "request" | "notification" | "outgoing",
    /** The JSON-RPC method. */
    readonly method: M,
    /** The params the handler will get, or the client will be sent. */
    public params: ServerParamsOf<M>,
    /** The connection it arrived on, or is sent on. */
    readonly session: ServerSession,
    /**
     * The handler's context (incoming requests only): progress, logging, elicitation, the abort
     * signal. An extension may replace it before `next()` (the tasks extension: the task's context).
     */
    public request: RequestContext | undefined,
  ) {}

  /** The message's `_meta`: trace context, progress token, and in 2026-07-28 the client's identity. */
  get meta(): Readonly<Meta> | undefined {
    return this.params._meta;
  }

  /** `modern` for a stateless (2026-07-28) request, `legacy` for one of a handshake session. */
  get era(): Era {
    return this.request?.request.requestMeta ? "modern" : "legacy";
  }

  /**
   * Whether the answer carries caching hints (`ttlMs`, `cacheScope`): a cacheable request of the
   * stateless era (2026-07-28), such as `tools/list`. A middleware whose answer differs from
   * caller to caller marks it `cacheScope: "private"` then.
   */
  get cacheable(): boolean {
    return (this.request?.request.requestMeta ? modern : legacy).cacheable(this.method);
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
 * admission and the capability and scope checks) and notification it applies to, and before each
 * notification and request the server sends (`ctx.kind === "outgoing"`). `await next()` gives the
 * result, or throws the handler's error; a middleware may return its own result or throw its own
 * error instead, and may rewrite `ctx.params` first.
 *
 * Where it runs is one list, `MIDDLEWARE_ORDER` (outermost first: tracing, auth, policy, audit,
 * extensions, `use`): a middleware may declare its place and directions (`placed`); without, it
 * runs at `use`, inside the extensions, so for `tools/call` it sees the tool's own result even
 * when the call runs as a task. An outgoing message is sent when the innermost `next()` is
 * called: change `ctx.params` and call `next()` without awaiting anything first, and it keeps its
 * place among the other messages (a progress notification before the result it precedes).
 *
 * @example
 * server.use(async (ctx, next) => {
 *   const started = performance.now();
 *   try { return await next(); } finally { console.error(ctx.method, performance.now() - started); }
 * });
 */
export type ServerMiddleware<M extends string = string> = ((
  ctx: ServerMiddlewareContext<M>,
  next: () => Promise<ServerResultOf<M>>,
) => ServerResultOf<M> | Promise<ServerResultOf<M>>) &
  MiddlewareDeclaration;

/** The notifications a client sends a server; server middleware sees them. */
export const CLIENT_NOTIFICATIONS = [
  "notifications/initialized",
  "notifications/cancelled",
  "notifications/progress",
  "notifications/roots/list_changed",
] as const;
