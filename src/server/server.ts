import type { JSONRPCMessage } from "../jsonrpc/messages.js";
import { type Revision, SUPPORTED_VERSIONS } from "../protocol/revisions/index.js";
import type { SchemaLike } from "../protocol/schema/validator.js";
import type { Transport } from "../protocol/transport.js";
import type { Implementation } from "../protocol/types/base.js";
import type { LoggingLevel } from "../protocol/types/client-features.js";
import type { ServerCapabilities } from "../protocol/types/lifecycle.js";
import type { HttpServerHandle } from "../transports/http/server/listen.js";
import type { MessageBus, Replication } from "../transports/http/server/replication.js";
import { StdioServerTransport, type StdioServerTransportOptions } from "../transports/stdio/server.js";
import { type MethodSelector, useArguments } from "../util/middleware.js";
import type { UriTemplateVariables } from "../util/uri-template.js";
import type { Scopes } from "./auth/scopes.js";
import { coreRows } from "./dispatch/core-rows.js";
import type { DispatchRow } from "./dispatch/dispatch.js";
import { ServerExtensions } from "./dispatch/extensions.js";
import type { ServerMiddleware } from "./dispatch/middleware.js";
import { RateLimiter, rateLimitMiddleware } from "./dispatch/rate-limit.js";
import { SessionDispatch } from "./dispatch/session-dispatch.js";
import { StatelessServing } from "./dispatch/stateless.js";
import type { ServerInfo, ServerOptions } from "./options.js";
import {
  type PromptArgs,
  type PromptArguments,
  type PromptConfig,
  type PromptHandler,
  PromptRegistry,
} from "./registries/prompts.js";
import {
  type ReadResource,
  type ReadTemplateResource,
  type ResourceMeta,
  type ResourceOptions,
  ResourceRegistry,
  type ResourceTemplateMeta,
  type ResourceTemplateOptions,
} from "./registries/resources.js";
import {
  type ToolArgs,
  type ToolConfig,
  type ToolHandler,
  ToolRegistry,
  type ToolResultOf,
} from "./registries/tools.js";
import type { ServeHttpOptions, WebEndpoint } from "./serving/http.js";
import { type Broadcast, Broadcasts, deliver } from "./sessions/broadcast.js";
import { RequestStateSigner } from "./sessions/request-state.js";
import { type ServerSession, ServerSession as Session, type SessionHost } from "./sessions/session.js";
import { Subscriptions } from "./sessions/subscriptions.js";

export type { ServerInfo, ServerOptions } from "./options.js";

type ListKind = "tools" | "resources" | "prompts";

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
export class McpServer implements SessionHost {
  readonly serverInfo: Implementation;
  readonly instructions: string | undefined;
  readonly supportedVersions: readonly string[];
  private readonly tools: ToolRegistry;
  private readonly resources: ResourceRegistry;
  private readonly prompts: PromptRegistry;
  private readonly sessions = new Set<ServerSession>();
  private readonly changed = new Set<ListKind>();
  private webEndpoint: Promise<WebEndpoint> | undefined;
  /** The dispatch table, with the middlewares, as sessions answer from it. */
  private readonly dispatch: SessionDispatch;
  private signer: RequestStateSigner;
  /** The other replicas' server-wide notifications, when serving as one of several. */
  private broadcasts: Broadcasts | undefined;
  private readonly rows: ReadonlyMap<string, DispatchRow>;
  private readonly subscriptions: Subscriptions;
  private readonly extensions: ServerExtensions;
  private declared: ServerCapabilities | undefined;

  constructor(
    info: ServerInfo,
    private readonly options: ServerOptions = {},
  ) {
    const { instructions, ...serverInfo } = info;
    this.serverInfo = serverInfo;
    this.instructions = instructions;
    this.supportedVersions = options.supportedVersions ?? SUPPORTED_VERSIONS;
    this.subscriptions = new Subscriptions(options.maxListenStreams);
    const pageSize = options.pageSize ?? 1000;
    this.tools = new ToolRegistry(pageSize, () => this.listChanged("tools"));
    this.resources = new ResourceRegistry(
      pageSize,
      () => this.listChanged("resources"),
      options.maxUriLength,
    );
    this.prompts = new PromptRegistry(pageSize, () => this.listChanged("prompts"));
    this.extensions = new ServerExtensions(options.extensions ?? [], {
      tool: (name) => this.tools.describe(name),
      listenToTasks: (extension) => this.subscriptions.listenToTasks(extension),
    });
    const table = this.extensions.extend(
      coreRows({
        tools: this.tools,
        resources: this.resources,
        prompts: this.prompts,
        subscriptions: this.subscriptions,
        supportedVersions: this.supportedVersions,
        instructions,
        hideUnauthorized: options.hideUnauthorized === true,
        capabilities: () => this.capabilities(),
      }),
    );
    this.rows = new Map(table.map((entry) => [entry.method, entry]));
    this.signer = new RequestStateSigner(options.requestStateSecret, options.requestStateTtl);
    // Replaced by the replicas' shared secret when serving as one of several.
    const signerOf = () => this.signer;
    const stateless = new StatelessServing({
      serverInfo,
      cache: options.cache,
      hideUnauthorized: options.hideUnauthorized === true,
      get signer() {
        return signerOf();
      },
      resources: this.resources,
      capabilities: () => this.capabilities(),
    });
    this.dispatch = new SessionDispatch(table, stateless);
    if (options.rateLimit) {
      const limiter = new RateLimiter(options.rateLimit);
      this.use(
        "tools/call",
        rateLimitMiddleware(limiter, (name) => this.tools.has(name)),
      );
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
    this.tools.add(name, config, handler as ToolHandler<ToolArgs<I>>);
    return this;
  }

  /** Registers a resource at a fixed URI; `read` returns text, bytes or contents. */
  resource(uri: string, meta: ResourceMeta, read: ReadResource, options?: ResourceOptions): this {
    this.resources.add(uri, meta, read, options);
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
    this.resources.addTemplate(uriTemplate, meta, read as ReadTemplateResource, options);
    return this;
  }

  /** Registers a prompt; a missing required argument is answered with -32602. */
  prompt<A extends PromptArguments | undefined>(
    name: string,
    config: PromptConfig<A>,
    get: PromptHandler<PromptArgs<NoInfer<A>>>,
  ): this {
    this.prompts.add(name, config, get);
    return this;
  }

  /**
   * Adds a middleware around every incoming request and notification, or (with a method, a list of
   * methods or a glob such as `"tools/*"`) around those it names. The first added runs outermost.
   * Chains are composed here, once, not per call.
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
    this.dispatch.use(methods, link as ServerMiddleware, this.sessions);
    return this;
  }

  /** Removes a tool; connected clients are told the list changed. */
  removeTool(name: string): boolean {
    return this.tools.remove(name);
  }

  /** Removes a resource or resource template (by its URI or URI template). */
  removeResource(uriOrTemplate: string): boolean {
    return this.resources.remove(uriOrTemplate);
  }

  /** Removes a prompt. */
  removePrompt(name: string): boolean {
    return this.prompts.remove(name);
  }

  /** Tells the sessions subscribed to `uri` that it changed (on every replica, when it has several). */
  resourceUpdated(uri: string): void {
    this.deliver({ kind: "updated", uri });
    this.broadcasts?.publish({ kind: "updated", uri });
  }

  /** Sends a log message to every session, each filtered by its own level. */
  log(level: LoggingLevel, data: unknown, logger?: string): void {
    const broadcast: Broadcast =
      logger === undefined ? { kind: "log", level, data } : { kind: "log", level, data, logger };
    this.deliver(broadcast);
    this.broadcasts?.publish(broadcast);
  }

  /** Delivers a server-wide notification to this process's listen streams and sessions. */
  private deliver(broadcast: Broadcast): void {
    deliver(broadcast, this.subscriptions, this.sessions);
  }

  /**
   * @internal Serves as one of several replicas: server-wide notifications raised here reach the
   * sessions and listen streams of every replica on `bus`.
   */
  async replicate(bus: MessageBus, requestStateSecret: string | Uint8Array | undefined): Promise<void> {
    if (requestStateSecret !== undefined)
      this.signer = new RequestStateSigner(requestStateSecret, this.options.requestStateTtl);
    if (this.broadcasts) return;
    this.broadcasts = new Broadcasts(bus, (broadcast) => this.deliver(broadcast));
    await this.broadcasts.start();
  }

  /** The capabilities this server declares in `initialize`: what is registered, and what was asked for. */
  capabilities(): ServerCapabilities {
    // Asked for on every stateless request: computed once per change of what is registered.
    this.declared ??= this.computeCapabilities();
    return this.declared;
  }

  private computeCapabilities(): ServerCapabilities {
    const asked = this.options.capabilities ?? {};
    const capabilities: ServerCapabilities = { logging: {} };
    if (asked.completions || this.resources.completes || this.prompts.completes)
      capabilities.completions = {};
    if (asked.prompts || this.prompts.size > 0) capabilities.prompts = { listChanged: true };
    if (asked.resources || this.resources.size > 0) {
      capabilities.resources = { subscribe: true, listChanged: true };
    }
    if (asked.tools || this.tools.size > 0) capabilities.tools = { listChanged: true };
    this.extensions.declare(capabilities);
    return capabilities;
  }

  /** @internal What a handshake session on `revision` is told: extensions in that revision's core as it has them. */
  handshakeCapabilities(revision: Revision): ServerCapabilities {
    return this.extensions.forHandshake(this.capabilities(), revision);
  }

  /** @internal Whether an extension adds `method`: such a method is admitted whatever the revision table says. */
  extends(method: string): boolean {
    return this.extensions.adds(method);
  }

  /** @internal Answers a new session's requests from the dispatch table. */
  install(session: ServerSession): void {
    this.sessions.add(session);
    this.dispatch.install(session);
  }

  /**
   * @internal The scopes a message needs of its sender: those of the tool it calls, the resource
   * it reads, the prompt it gets. The HTTP endpoint checks them before the server sees the message.
   */
  requiredScopes(message: JSONRPCMessage): { scopes: Scopes; what: string } | undefined {
    if (!("method" in message) || !("id" in message)) return undefined;
    return this.rows.get(message.method)?.scopes?.(message.params ?? {});
  }

  /** @internal Every scope a tool, resource or prompt needs. */
  declaredScopes(): string[] {
    return [
      ...new Set([
        ...this.tools.declaredScopes(),
        ...this.resources.declaredScopes(),
        ...this.prompts.declaredScopes(),
      ]),
    ];
  }

  /** @internal */
  release(session: ServerSession): void {
    this.sessions.delete(session);
  }

  /**
   * Serves one client over a transport; resolves once the transport is started. `assumeVersion`
   * serves without a handshake, as stateless HTTP does.
   */
  async connect(transport: Transport, init: { assumeVersion?: string } = {}): Promise<ServerSession> {
    const session = new Session(this, transport, {
      requestTimeout: this.options.requestTimeout,
      trace: this.options.trace,
      assumeVersion: init.assumeVersion,
    });
    await session.start();
    return session;
  }

  /**
   * Serves over this process's stdin/stdout. When stdin closes the server closes and, unless
   * `exitOnClose` is false, the process exits.
   */
  async serveStdio(
    options: StdioServerTransportOptions & { exitOnClose?: boolean } = {},
  ): Promise<ServerSession> {
    const { exitOnClose = true, ...transportOptions } = options;
    const session = await this.connect(new StdioServerTransport(transportOptions));
    if (exitOnClose) session.peer.onClose(() => process.exit(0));
    return session;
  }

  /**
   * Serves Streamable HTTP on `node:http` at `http://host:port/path` (default 127.0.0.1, a free
   * port, `/mcp`), and optionally the legacy HTTP+SSE transport beside it.
   */
  async serveHttp(options: ServeHttpOptions = {}): Promise<HttpServerHandle> {
    const http = await import("./serving/http.js");
    return http.serveHttp(this.httpHost(), options);
  }

  /**
   * The MCP endpoint as a web-standard handler, for Hono, Bun, Deno or any `fetch`-style server.
   * Configure it (sessions, Host/Origin allow-lists, event store) with `options.http`.
   */
  fetch = async (request: Request): Promise<Response> => {
    const http = await import("./serving/http.js");
    this.webEndpoint ??= http.webEndpoint(this.httpHost(), this.options.http);
    return http.handleRequest(await this.webEndpoint, request);
  };

  private httpHost() {
    return {
      connect: (transport: Transport, init: { assumeVersion?: string }) =>
        this.connect(transport, init).then(() => {}),
      supportedVersions: this.supportedVersions,
      paramHeaders: (tool: string) => this.tools.paramHeaders(tool),
      scopes: {
        requiredScopes: (message: JSONRPCMessage) => this.requiredScopes(message),
        declaredScopes: () => this.declaredScopes(),
      },
      replicate: (replication: Replication) =>
        this.replicate(replication.bus, replication.requestStateSecret),
    };
  }

  /** Ends every session. */
  async close(): Promise<void> {
    this.broadcasts?.close();
    this.broadcasts = undefined;
    await Promise.all([...this.sessions].map((session) => session.close()));
    await this.extensions.close();
    const endpoint = await this.webEndpoint?.catch(() => undefined);
    await endpoint?.handler.close();
  }

  /** Coalesces changes made in one tick into one notification per list per session. */
  private listChanged(kind: ListKind): void {
    this.declared = undefined;
    if ((this.sessions.size === 0 && !this.broadcasts) || this.changed.has(kind)) return;
    this.changed.add(kind);
    if (this.changed.size > 1) return;
    queueMicrotask(() => {
      const broadcast: Broadcast = { kind: "listChanged", lists: [...this.changed] };
      this.changed.clear();
      this.deliver(broadcast);
      this.broadcasts?.publish(broadcast);
    });
  }
}
