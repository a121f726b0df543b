import type { RequestOptions } from "../../protocol/engine/outgoing.js";
import type { Era } from "../../protocol/revisions/revision.js";
import type { Transport } from "../../protocol/transport.js";
import type { Implementation, Meta, PaginatedRequestParams } from "../../protocol/types/base.js";
import type { CompleteRequestParams, CompleteResult } from "../../protocol/types/completion.js";
import type { GetPromptResult, ListPromptsResult } from "../../protocol/types/prompts.js";
import type {
  ListResourcesResult,
  ListResourceTemplatesResult,
  ReadResourceResult,
} from "../../protocol/types/resources.js";
import type { CallToolRequestParams, CallToolResult, ListToolsResult } from "../../protocol/types/tools.js";
import { compose, type Link, MiddlewareStack } from "../../util/middleware.js";
import type { Channel } from "../channels/channel.js";

/** The params and result of the requests a client sends, for typed per-method middleware. */
export interface ClientRequestTypes {
  "tools/list": { params: PaginatedRequestParams; result: ListToolsResult };
  "tools/call": { params: CallToolRequestParams; result: CallToolResult };
  "resources/list": { params: PaginatedRequestParams; result: ListResourcesResult };
  "resources/templates/list": { params: PaginatedRequestParams; result: ListResourceTemplatesResult };
  "resources/read": { params: { uri: string }; result: ReadResourceResult };
  "prompts/list": { params: PaginatedRequestParams; result: ListPromptsResult };
  "prompts/get": { params: { name: string; arguments?: Record<string, string> }; result: GetPromptResult };
  "completion/complete": { params: CompleteRequestParams; result: CompleteResult };
}

/** The params a client middleware of `M` sees: typed for the methods above, a record otherwise. */
export type ClientParamsOf<M extends string> = (M extends keyof ClientRequestTypes
  ? ClientRequestTypes[M]["params"]
  : Record<string, unknown>) & { _meta?: Meta };

/** The result `next()` of a client middleware of `M` resolves with. */
export type ClientResultOf<M extends string> = M extends keyof ClientRequestTypes
  ? ClientRequestTypes[M]["result"]
  : Record<string, unknown>;

/** What the context of a client middleware knows of its connection. */
export interface ClientConnectionInfo {
  readonly transport: Transport;
  readonly channel: Channel;
}

/**
 * What a client middleware sees of one outgoing request. `params` (and `options`) may be replaced
 * or changed before `next()`: the request is sent with what they hold then.
 */
export class ClientMiddlewareContext<M extends string = string> {
  constructor(
    /** The JSON-RPC method. */
    readonly method: M,
    /** The params to send; `undefined` for a request without any. */
    public params: ClientParamsOf<M> | undefined,
    /** Timeout, abort signal and progress callback of the request. */
    public options: RequestOptions | undefined,
    private readonly connection: ClientConnectionInfo,
  ) {}

  /** Always `request`: a client middleware sees requests. */
  get kind(): "request" {
    return "request";
  }

  /** The request's own `_meta` (the 2026-07-28 client identity is added after the middlewares). */
  get meta(): Readonly<Meta> | undefined {
    return this.params?._meta;
  }

  /** The era the client speaks to this server: `legacy` (a handshake session) or `modern`. */
  get era(): Era {
    return this.connection.channel.era;
  }

  /** The HTTP session id the server gave (Streamable HTTP with sessions). */
  get sessionId(): string | undefined {
    return this.connection.transport.sessionId;
  }

  /** The protocol version spoken with the server. */
  get protocolVersion(): string {
    return this.connection.channel.server.protocolVersion;
  }

  /** What the server said of itself. */
  get serverInfo(): Implementation {
    return this.connection.channel.server.serverInfo;
  }

  /** The transport the request goes over (for its kind, session, peer address). */
  get transport(): Transport {
    return this.connection.transport;
  }

  /** Adds entries to the request's `_meta`, copying what may be shared. */
  setMeta(entries: Meta): void {
    const params = (this.params ?? {}) as Record<string, unknown>;
    this.params = {
      ...params,
      _meta: { ...(params._meta as Meta | undefined), ...entries },
    } as ClientParamsOf<M>;
  }
}

/**
 * A client middleware: runs around every outgoing request it applies to. `await next()` gives the
 * server's result, or throws its error; a middleware may return its own result or throw its own
 * error instead, and may rewrite `ctx.params` first.
 *
 * @example
 * client.use(async (ctx, next) => {
 *   ctx.setMeta({ "example.com/request": crypto.randomUUID() });
 *   return next();
 * });
 */
export type ClientMiddleware<M extends string = string> = (
  ctx: ClientMiddlewareContext<M>,
  next: () => Promise<ClientResultOf<M>>,
) => ClientResultOf<M> | Promise<ClientResultOf<M>>;

type Context = ClientMiddlewareContext;
type Send = Channel["send"];
const same = <T>(value: T): T => value;

/**
 * A client's middlewares, installed over its channel's `send`: chains are composed per method on
 * first use and again after the stack changes; a method no middleware applies to is sent as before.
 */
export class ClientMiddlewares {
  readonly stack = new MiddlewareStack<Context, Record<string, unknown>>();
  private chains = new Map<string, ((ctx: Context) => Promise<Record<string, unknown>>) | undefined>();
  private composedAt = 0;
  private installed = false;

  constructor(private readonly connection: ClientConnectionInfo) {}

  /** Adds a middleware; the first time, routes the channel's requests through the stack. */
  add(selector: string | readonly string[] | undefined, link: Link<Context, Record<string, unknown>>): void {
    this.stack.add(selector, link);
    if (this.installed) return;
    this.installed = true;
    const { channel } = this.connection;
    const raw: Send = channel.send.bind(channel);
    const inner = (ctx: Context) => raw(ctx.method, ctx.params, ctx.options, same<Record<string, unknown>>);
    channel.send = <T, R>(
      method: string,
      params: Record<string, unknown> | undefined,
      options: RequestOptions | undefined,
      map: (result: T) => R,
    ): Promise<R> => {
      const chain = this.chainFor(method, inner);
      if (!chain) return raw(method, params, options, map);
      return chain(new ClientMiddlewareContext(method, params, options, this.connection)).then(
        map as unknown as (result: Record<string, unknown>) => R,
      );
    };
  }

  private chainFor(method: string, inner: (ctx: Context) => Promise<Record<string, unknown>>) {
    if (this.composedAt !== this.stack.version) {
      this.chains = new Map();
      this.composedAt = this.stack.version;
    }
    if (this.chains.has(method)) return this.chains.get(method);
    const links = this.stack.linksFor(method);
    const chain = links.length === 0 ? undefined : compose(links, inner);
    this.chains.set(method, chain);
    return chain;
  }
}
