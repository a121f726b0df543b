import { SUPPORTED_VERSIONS } from "../protocol/revisions/index.js";
import type { SchemaLike } from "../protocol/schema/validator.js";
import type { Transport } from "../protocol/transport.js";
import type { Implementation } from "../protocol/types/base.js";
import type { LoggingLevel } from "../protocol/types/client-features.js";
import type { ServerCapabilities } from "../protocol/types/lifecycle.js";
import type { HttpServerHandle } from "../transports/http/server/listen.js";
import type { StdioServerTransportOptions } from "../transports/stdio/server.js";
import { type MethodSelector, useArguments } from "../util/middleware.js";
import type { UriTemplateVariables } from "../util/uri-template.js";
import type { ServerMiddleware } from "./dispatch/middleware.js";
import { placed } from "./dispatch/order.js";
import { RateLimiter, rateLimitMiddleware } from "./dispatch/rate-limit.js";
import { ServerHost } from "./dispatch/server-host.js";
import type { ServerInfo, ServerOptions } from "./options.js";
import type { PromptArgs, PromptArguments, PromptConfig, PromptHandler } from "./registries/prompts.js";
import { Registries } from "./registries/registries.js";
import type {
  ReadResource,
  ReadTemplateResource,
  ResourceMeta,
  ResourceOptions,
  ResourceTemplateMeta,
  ResourceTemplateOptions,
} from "./registries/resources.js";
import type { ToolArgs, ToolConfig, ToolHandler, ToolResultOf } from "./registries/tool-config.js";
import type { ServeHttpOptions } from "./serving/http.js";
import { Serving } from "./serving/serving.js";
import type { Broadcast } from "./sessions/broadcast.js";
import type { ServerSession } from "./sessions/session.js";
import { Sessions } from "./sessions/sessions.js";
import { Subscriptions } from "./sessions/subscriptions.js";

export type { ServerInfo, ServerOptions } from "./options.js";

/**
 * An MCP server: register tools, resources, resource templates and prompts, then serve them over
 * stdio or any transport. One server serves any number of sessions.
 *
 * @example
 * const server = new McpServer({ name: "calc", version: "1.0.0" })
 *   .tool("add", { description: "Add two numbers", input: z.object({ a: z.number(), b: z.number() }) },
 *         ({ a, b }) => String(a + b));
 * await server.serveStdio();
 */
export class McpServer {
  readonly serverInfo: Implementation;
  readonly instructions: string | undefined;
  readonly supportedVersions: readonly string[];
  private readonly registries: Registries;
  private readonly sessions: Sessions;
  /** What the sessions are served by: the dispatch table, its middlewares, the capabilities. */
  private readonly host: ServerHost;
  private readonly serving: Serving;

  constructor(info: ServerInfo, options: ServerOptions = {}) {
    const { instructions, ...serverInfo } = info;
    this.serverInfo = serverInfo;
    this.instructions = instructions;
    this.supportedVersions = options.supportedVersions ?? SUPPORTED_VERSIONS;
    this.sessions = new Sessions(new Subscriptions(options.maxListenStreams));
    this.registries = new Registries(options, (kind) => {
      this.host.registryChanged();
      this.sessions.listChanged(kind);
    });
    this.host = new ServerHost(this, options, this.registries, this.sessions);
    this.serving = new Serving(this.host, this.registries, this.sessions, options);
    if (options.rateLimit) {
      const limiter = new RateLimiter(options.rateLimit);
      const limit = rateLimitMiddleware(limiter, (name) => this.registries.tools.has(name));
      this.use("tools/call", placed("auth", limit as ServerMiddleware, ["incoming"]));
    }
  }

  /**
   * Registers a tool. Arguments are validated against `input` before the handler runs; a handler
   * may return a string, content blocks, a `CallToolResult`, or the structured value when `output`
   * is given. A thrown error becomes an `isError` result the model can read.
   */
  tool<I extends SchemaLike | undefined = undefined, O extends SchemaLike | undefined = undefined>(
    name: string,
    config: ToolConfig<I, O>,
    handler: ToolHandler<ToolArgs<I>, ToolResultOf<O>>,
  ): this {
    this.registries.tools.add(name, config, handler as ToolHandler<ToolArgs<I>>);
    return this;
  }

  /** Registers a resource at a fixed URI; `read` returns text, bytes or contents. */
  resource(uri: string, meta: ResourceMeta, read: ReadResource, options?: ResourceOptions): this {
    this.registries.resources.add(uri, meta, read, options);
    return this;
  }

  /**
   * Registers a family of resources named by an RFC 6570 URI template. `read` gets the variables
   * matched from the requested URI; `list` names concrete resources; `complete` completes variables.
   */
  resourceTemplate<T extends string>(
    uriTemplate: T,
    meta: ResourceTemplateMeta,
    read: ReadTemplateResource<UriTemplateVariables<T>>,
    options: ResourceTemplateOptions<keyof UriTemplateVariables<T> & string> = {},
  ): this {
    this.registries.resources.addTemplate(uriTemplate, meta, read as ReadTemplateResource, options);
    return this;
  }

  /** Registers a prompt; a missing required argument is answered with -32602. */
  prompt<A extends PromptArguments | undefined>(
    name: string,
    config: PromptConfig<A>,
    get: PromptHandler<PromptArgs<NoInfer<A>>>,
  ): this {
    this.registries.prompts.add(name, config, get);
    return this;
  }

  /**
   * Adds a middleware around every incoming request and notification and before every outgoing
   * one, or (with a method, a list of methods or a glob such as `"tools/*"`) those it names.
   *
   * It runs at the place it declares in `MIDDLEWARE_ORDER` (`placed`, or `otelServer()` at
   * `tracing`), by default at `use`: the innermost place, inside the extensions, so that a
   * `tools/call` middleware sees the tool's own result whether the call is answered inline or as a
   * task, in both eras, while tracing, auth, the gateway's policy and audit see the call as the
   * client sent it. Of one place, the first added runs outermost. Chains are composed here, once,
   * not per call.
   *
   * @example
   * server.use("tools/call", async (ctx, next) => {
   *   if (!ctx.auth?.scopes.includes("tools")) throw new McpError(ErrorCode.InvalidRequest, "Forbidden");
   *   return next();
   * });
   */
  use(middleware: ServerMiddleware): this;
  use<M extends string>(method: M, middleware: ServerMiddleware<M>): this;
  use(methods: MethodSelector, middleware: ServerMiddleware): this;
  use(selector: MethodSelector | ServerMiddleware, middleware?: ServerMiddleware): this {
    const [methods, link] = useArguments(selector, middleware);
    this.host.use(methods, link as ServerMiddleware);
    return this;
  }

  /** Removes a tool; connected clients are told the list changed. */
  removeTool(name: string): boolean {
    return this.registries.tools.remove(name);
  }

  /** Removes a resource or resource template (by its URI or URI template). */
  removeResource(uriOrTemplate: string): boolean {
    return this.registries.resources.remove(uriOrTemplate);
  }

  /** Removes a prompt. */
  removePrompt(name: string): boolean {
    return this.registries.prompts.remove(name);
  }

  /** Tells the sessions subscribed to `uri` that it changed (on every replica, when it has several). */
  resourceUpdated(uri: string): void {
    this.sessions.raise({ kind: "updated", uri });
  }

  /** Sends a log message to every session, each filtered by its own level. */
  log(level: LoggingLevel, data: unknown, logger?: string): void {
    const broadcast: Broadcast =
      logger === undefined ? { kind: "log", level, data } : { kind: "log", level, data, logger };
    this.sessions.raise(broadcast);
  }

  /** The capabilities this server declares in `initialize`: what is registered, and what was asked for. */
  capabilities(): ServerCapabilities {
    return this.host.capabilities();
  }

  /**
   * Serves one client over a transport; resolves once the transport is started. `assumeVersion`
   * serves without a handshake, as sessionless HTTP does.
   */
  connect(transport: Transport, init: { assumeVersion?: string } = {}): Promise<ServerSession> {
    return this.serving.connect(transport, init);
  }

  /**
   * Serves over this process's stdin/stdout. When stdin closes the server closes and, unless
   * `exitOnClose` is false, the process exits.
   */
  serveStdio(options: StdioServerTransportOptions & { exitOnClose?: boolean } = {}): Promise<ServerSession> {
    return this.serving.serveStdio(options);
  }

  /**
   * Serves Streamable HTTP on `node:http` at `http://host:port/path` (default 127.0.0.1, a free
   * port, `/mcp`), and optionally the legacy HTTP+SSE transport beside it.
   */
  serveHttp(options: ServeHttpOptions = {}): Promise<HttpServerHandle> {
    return this.serving.serveHttp(options);
  }

  /**
   * The MCP endpoint as a web-standard handler, for Hono, Bun, Deno or any `fetch`-style server.
   * Configure it (sessions, Host/Origin allow-lists, event store) with `options.http`.
   */
  fetch = (request: Request): Promise<Response> => this.serving.fetch(request);

  /** Ends every session. */
  async close(): Promise<void> {
    await this.sessions.close();
    await this.host.close();
    await this.serving.close();
  }
}
