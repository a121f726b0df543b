import type { Peer, RequestOptions } from "../protocol/engine/peer.js";
import { extensionSettings } from "../protocol/extensions.js";
import { type Revision, revisionOf } from "../protocol/revisions/index.js";
import type { Transport } from "../protocol/transport.js";
import type { Implementation, Result } from "../protocol/types/base.js";
import type { LoggingLevel, Root } from "../protocol/types/client-features.js";
import type { CompleteReference, CompleteResult } from "../protocol/types/completion.js";
import type { InitializeResult, ServerCapabilities } from "../protocol/types/lifecycle.js";
import type { GetPromptResult, Prompt } from "../protocol/types/prompts.js";
import type { ReadResourceResult, Resource, ResourceTemplate } from "../protocol/types/resources.js";
import type { Tool } from "../protocol/types/tools.js";
import type { Emitter } from "../util/emitter.js";
import { type MethodSelector, useArguments } from "../util/middleware.js";
import type { Channel } from "./channels/channel.js";
import { type Connected, connect } from "./connect/connect.js";
import type { ClientOptions } from "./connect/options.js";
import { type ClientEvents, LIST_EVENTS } from "./features/events.js";
import { type ClientMiddleware, ClientMiddlewares } from "./requests/middleware.js";
import { CachedReads, requireCapability } from "./requests/reads.js";
import type { TaskInfo, ToolTask } from "./tasks/task.js";
import { type CallToolOptions, ToolTasks } from "./tasks/tool-tasks.js";
import { ListedTools } from "./tools/listed-tools.js";
import { type AsToolsOptions, asTools, type McpTool } from "./tools/tool-adapter.js";
import type { ToolResult } from "./tools/tool-result.js";
import { usableSchemas } from "./tools/tool-schemas.js";

const same = <T>(value: T): T => value;

/**
 * An MCP client connected to one server. `McpClient.connect` spawns or reaches the server and
 * completes the handshake; `close()` ends the connection and, for stdio, the server's whole
 * process tree. Server notifications arrive as typed events (`client.on("log", …)`).
 *
 * @example
 * const client = await McpClient.connect({ command: "npx", args: ["-y", "@modelcontextprotocol/server-everything"] });
 * const result = await client.callTool("echo", { message: "hi" });
 * console.log(result.text());
 * await client.close();
 */
export class McpClient {
  private readonly events: Emitter<ClientEvents>;
  /** Shared with the `roots/list` handler, which answers with the current roots. */
  private readonly rootsState: { roots: Root[] };
  /** How this client speaks to the server: chosen once, at connect, by the server's era. */
  private readonly channel: Channel;

  /** The JSON-RPC engine, for methods this class has no wrapper for. */
  readonly peer: Peer;
  readonly transport: Transport;
  /** What the client keeps of the tools as last listed. */
  private readonly tools: ListedTools;
  /** List and read results, kept for the `ttlMs` the server gave. */
  private readonly reads: CachedReads;
  /** Made by the first `use`. */
  private middlewares: ClientMiddlewares | undefined;
  /** Which calls run as tasks, and their handles. */
  private readonly tasks: ToolTasks;

  private constructor({ parts, channel }: Connected) {
    this.peer = parts.peer;
    this.transport = parts.transport;
    this.events = parts.events;
    this.rootsState = parts.rootsState;
    this.channel = channel;
    this.tools = new ListedTools(parts.toolSchemas, parts.safeToRepeat);
    const request = <T>(method: string, params?: Record<string, unknown>, options?: RequestOptions) =>
      this.request<T>(method, params, options);
    this.reads = new CachedReads(parts.cache, request);
    this.tasks = new ToolTasks(channel, request, parts.answer, this.tools.taskSupport);
  }

  /** What the server said of itself, at the handshake or in discovery. */
  private get init(): InitializeResult {
    return this.channel.server;
  }

  /** The server's name, version and display data. */
  get serverInfo(): Implementation {
    return this.init.serverInfo;
  }

  /** What the server can do. */
  get capabilities(): ServerCapabilities {
    return this.init.capabilities;
  }

  /**
   * The settings the server declared for extension `id` (`capabilities.extensions[id]`), or
   * `undefined` when it does not speak it.
   */
  serverExtension(id: string): object | undefined {
    return extensionSettings(this.capabilities, id);
  }

  /** How the server says it should be used, if it says. */
  get instructions(): string | undefined {
    return this.init.instructions;
  }

  /** The negotiated protocol version. */
  get protocolVersion(): string {
    return this.init.protocolVersion;
  }

  /** The negotiated revision's rules. */
  get revision(): Revision {
    return revisionOf(this.init.protocolVersion)!;
  }

  /**
   * Connects and completes the handshake: spawns a stdio server (`command`), reaches an HTTP one
   * (`url`: Streamable HTTP, falling back to legacy SSE on a 4xx), or uses a given `transport`.
   * Rejects, and leaves nothing running, if it fails.
   */
  static async connect(options: ClientOptions): Promise<McpClient> {
    const client = new McpClient(await connect(options));
    for (const middleware of options.middleware ?? []) client.use(middleware);
    return client;
  }

  /**
   * Adds a middleware around every outgoing request, or (with a method, a list of methods or a
   * glob such as `"tools/*"`) around those it names. The first added runs outermost.
   *
   * @example
   * client.use("tools/call", async (ctx, next) => {
   *   const started = performance.now();
   *   try { return await next(); } finally { console.error(ctx.params?.name, performance.now() - started); }
   * });
   */
  use(middleware: ClientMiddleware): this;
  use<M extends string>(method: M, middleware: ClientMiddleware<M>): this;
  use(methods: MethodSelector, middleware: ClientMiddleware): this;
  use(selector: MethodSelector | ClientMiddleware, middleware?: ClientMiddleware): this {
    const [methods, link] = useArguments(selector, middleware);
    this.middlewares ??= new ClientMiddlewares({ transport: this.transport, channel: this.channel });
    this.middlewares.add(methods, link as ClientMiddleware);
    return this;
  }

  /** Listens to a server notification or the end of the connection; returns the unsubscriber. */
  on<K extends keyof ClientEvents>(event: K, listener: (value: ClientEvents[K]) => void): () => void {
    // Statelessly, change notifications come only on a subscriptions/listen stream: open it on demand.
    const kind = LIST_EVENTS[event];
    if (kind && this.capabilities[kind]?.listChanged) this.channel.listen(kind);
    return this.events.on(event, listener);
  }

  /** Whether the connection has ended. */
  get isClosed(): boolean {
    return this.peer.isClosed;
  }

  /** Sends any request; the typed methods below are thin wrappers of this. */
  request<T = Result>(
    method: string,
    params?: Record<string, unknown>,
    options?: RequestOptions,
  ): Promise<T> {
    return this.channel.send<T, T>(method, params, options, same);
  }

  /** Checks the server is alive. */
  ping(options?: RequestOptions): Promise<void> {
    return this.channel.ping(options);
  }

  /** One page of `tools/list`. */
  listToolsPage(cursor?: string, options?: RequestOptions): Promise<{ tools: Tool[]; nextCursor?: string }> {
    return this.reads.page("tools/list", cursor, options);
  }

  /** Every tool the server offers, following every page. */
  async listTools(options?: RequestOptions): Promise<Tool[]> {
    const warn = (message: string) => this.events.emit("warning", message);
    const tools = usableSchemas(await this.reads.all<Tool>("tools/list", "tools", options), warn);
    this.tools.take(tools);
    return this.channel.usableTools(tools, warn);
  }

  /**
   * Calls a tool. A tool's own failure comes back as a result with `isError: true`; only protocol
   * and transport failures reject. A tool the server runs as a task (the tasks extension, or a
   * `required` one in a 2025-11-25 session) is polled to its end: the result is the task's.
   * With `{ task: true }` (or `{ task: { ttl } }`), the call gives the task's handle instead.
   */
  callTool(
    name: string,
    args?: Record<string, unknown>,
    options?: CallToolOptions & { task?: false },
  ): Promise<ToolResult>;
  callTool(
    name: string,
    args: Record<string, unknown>,
    options: CallToolOptions & { task: true | { ttl?: number } },
  ): Promise<ToolTask>;
  callTool(
    name: string,
    args: Record<string, unknown> = {},
    options?: CallToolOptions,
  ): Promise<ToolResult | ToolTask> {
    return this.tasks.call(name, this.channel.toolCallParams(name, args), options, this.capabilities);
  }

  /** A handle for a task of this server by its id, as another client or an earlier run made it. */
  task(taskId: string, options?: RequestOptions): Promise<ToolTask> {
    return this.tasks.attach(taskId, options);
  }

  /**
   * Every task the server lists for this client (`tasks/list`, following every page; 2025-11-25
   * sessions: the stateless tasks extension has no listing).
   */
  listTasks(options?: RequestOptions): Promise<TaskInfo[]> {
    return this.tasks.list(this.capabilities, options);
  }

  /** Every tool of the server (all pages of tools/list) as `Tool`s for an agent. */
  asTools(options?: AsToolsOptions): Promise<McpTool[]> {
    return asTools(this, options);
  }

  /** Every resource the server lists, following every page. */
  listResources(options?: RequestOptions): Promise<Resource[]> {
    return this.reads.all("resources/list", "resources", options);
  }

  /** Every resource template, following every page. */
  listResourceTemplates(options?: RequestOptions): Promise<ResourceTemplate[]> {
    return this.reads.all("resources/templates/list", "resourceTemplates", options);
  }

  /** Reads a resource: text contents carry `text`, binary ones base64 `blob`. */
  readResource(uri: string, options?: RequestOptions): Promise<ReadResourceResult> {
    return this.reads.get<ReadResourceResult>("resources/read", { uri }, options);
  }

  /** Asks for `resourceUpdated` events when `uri` changes. */
  async subscribeResource(uri: string, options?: RequestOptions): Promise<void> {
    requireCapability(this.capabilities.resources?.subscribe, "resource subscriptions (resources.subscribe)");
    await this.channel.subscribe(uri, options);
  }

  async unsubscribeResource(uri: string, options?: RequestOptions): Promise<void> {
    requireCapability(this.capabilities.resources?.subscribe, "resource subscriptions (resources.subscribe)");
    await this.channel.unsubscribe(uri, options);
  }

  /** Every prompt, following every page. */
  listPrompts(options?: RequestOptions): Promise<Prompt[]> {
    return this.reads.all("prompts/list", "prompts", options);
  }

  /** Gets a prompt's messages for the given (string) arguments. */
  getPrompt(
    name: string,
    args: Record<string, string> = {},
    options?: RequestOptions,
  ): Promise<GetPromptResult> {
    return this.request<GetPromptResult>("prompts/get", { name, arguments: args }, options);
  }

  /** Completes a prompt argument or a template variable; `context` holds arguments already chosen. */
  async complete(
    ref: CompleteReference,
    argument: { name: string; value: string },
    context?: Record<string, string>,
    options?: RequestOptions,
  ): Promise<CompleteResult["completion"]> {
    // completion/complete is older than the capability that declares it.
    if (this.revision.completionsCapability) requireCapability(this.capabilities.completions, "completions");
    const params: Record<string, unknown> = { ref, argument };
    if (context) params.context = { arguments: context };
    const result = await this.request<CompleteResult>("completion/complete", params, options);
    return result.completion;
  }

  /** Asks the server to send log messages at `level` and above. */
  async setLoggingLevel(level: LoggingLevel, options?: RequestOptions): Promise<void> {
    requireCapability(this.capabilities.logging, "logging");
    await this.channel.setLogLevel(level, options);
  }

  /** Replaces the roots and tells the server they changed. */
  setRoots(roots: Root[]): void {
    this.rootsState.roots = roots;
    this.channel.announceRoots();
  }

  /** Ends the connection; for stdio, the server's process tree is gone when this resolves. */
  close(): Promise<void> {
    this.channel.close();
    return this.peer.close();
  }
}
