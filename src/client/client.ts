import { ErrorCode, McpError } from "../jsonrpc/errors.js";
import type { Peer, RequestOptions } from "../protocol/engine/peer.js";
import {
  type ClientHandshakeOptions,
  clientHandshake,
  DEFAULT_HANDSHAKE_TIMEOUT,
} from "../protocol/eras/handshake.js";
import { type Revision, revisionOf } from "../protocol/revisions/index.js";
import type { Transport } from "../protocol/transport.js";
import type { Implementation, Result } from "../protocol/types/base.js";
import type { LoggingLevel, Root } from "../protocol/types/client-features.js";
import type { CompleteReference, CompleteResult } from "../protocol/types/completion.js";
import type { InitializeResult, ServerCapabilities } from "../protocol/types/lifecycle.js";
import type { GetPromptResult, Prompt } from "../protocol/types/prompts.js";
import type { ReadResourceResult, Resource, ResourceTemplate } from "../protocol/types/resources.js";
import type { CallToolResult, JsonSchema, Tool } from "../protocol/types/tools.js";
import { isSessionExpired } from "../transports/http/shared/client-errors.js";
import { paramHeadersOf } from "../transports/http/shared/param-headers.js";
import { StdioClientTransport } from "../transports/stdio/client.js";
import type { Emitter } from "../util/emitter.js";
import { VERSION as version } from "../version.js";
import { ResultCache } from "./cache.js";
import { httpTransports, shouldFallBack } from "./connect-http.js";
import type { ClientEvents } from "./events.js";
import type { FeatureAnswerer } from "./features.js";
import { ListenStream } from "./listen.js";
import { discover, type ModernIdentity, mirroredParams, modernRequest, sharedMeta } from "./modern.js";
import type { ClientOptions } from "./options.js";
import { allPages } from "./paginate.js";
import { type AsToolsOptions, asTools, type McpTool } from "./tool-adapter.js";
import { ToolResult } from "./tool-result.js";
import { type ClientParts, wireClient } from "./wiring.js";

const same = <T>(value: T): T => value;
const toToolResult = (result: CallToolResult): ToolResult => new ToolResult(result);

/** Whether the transport keeps a session it can start over (Streamable HTTP). */
function hasSession(transport: Transport): transport is Transport & { resetSession(): void } {
  return typeof (transport as { resetSession?: unknown }).resetSession === "function";
}

/** How long the stateless probe waits before taking a silent server for one of the handshake era. */
const PROBE_TIMEOUT = 5000;

/** Events that need a listen stream statelessly, and the capability that offers them. */
const LIST_EVENTS: Record<string, "tools" | "prompts" | "resources"> = {
  toolsListChanged: "tools",
  promptsListChanged: "prompts",
  resourcesListChanged: "resources",
};

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
  private init: InitializeResult;
  private readonly events: Emitter<ClientEvents>;
  /** Shared with the `roots/list` handler, which answers with the current roots. */
  private readonly rootsState: { roots: Root[] };
  private reinitializing: Promise<void> | undefined;
  /** The subscriptions/listen stream of a stateless connection. */
  private readonly listening: ListenStream | undefined;

  /** The JSON-RPC engine, for methods this class has no wrapper for. */
  readonly peer: Peer;
  readonly transport: Transport;
  private readonly handshake: ClientHandshakeOptions;
  private readonly answer: FeatureAnswerer;
  private readonly toolSchemas: Map<string, JsonSchema>;
  /** List and read results kept for the `ttlMs` the server gave. */
  private readonly cache: ResultCache;
  /** Set when the client speaks the stateless revision (2026-07-28) with this server. */
  private readonly modern: ModernIdentity | undefined;

  private constructor(parts: ClientParts) {
    this.peer = parts.peer;
    this.transport = parts.transport;
    this.init = parts.init;
    this.events = parts.events;
    this.rootsState = parts.rootsState;
    this.handshake = parts.handshake;
    this.answer = parts.answer;
    this.toolSchemas = parts.toolSchemas;
    this.cache = parts.cache;
    this.modern = parts.modern;
    this.listening = parts.modern ? new ListenStream(parts.peer, parts.modern) : undefined;
  }

  /** The server's name, version and display data. */
  get serverInfo(): Implementation {
    return this.init.serverInfo;
  }

  /** What the server can do. */
  get capabilities(): ServerCapabilities {
    return this.init.capabilities;
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
    if (!("url" in options)) {
      return McpClient.connectWith(
        "transport" in options ? options.transport : new StdioClientTransport(options),
        options,
      );
    }
    const attempts = await httpTransports(options);
    for (let i = 0; ; i++) {
      try {
        const transport = await attempts[i]!();
        // The legacy HTTP+SSE transport exists only in the handshake era: no stateless probe there.
        return await McpClient.connectWith(
          transport,
          options,
          transport.constructor.name !== "SseClientTransport",
        );
      } catch (error) {
        if (i === attempts.length - 1 || !shouldFallBack(error)) throw error;
      }
    }
  }

  private static async connectWith(
    transport: Transport,
    options: ClientOptions,
    probe = true,
  ): Promise<McpClient> {
    const parts = wireClient(transport, options, version);
    const { peer, handshake, toolSchemas } = parts;
    try {
      await peer.start();
      const wanted = options.protocolVersion === undefined ? undefined : revisionOf(options.protocolVersion);
      if (probe && wanted?.era !== "legacy") {
        const identity = { clientCapabilities: handshake.capabilities, clientInfo: handshake.clientInfo };
        const timeout = Math.min(options.handshakeTimeout ?? DEFAULT_HANDSHAKE_TIMEOUT, PROBE_TIMEOUT);
        const found = await discover(peer, transport, identity, wanted?.version, timeout, (message) =>
          mirroredParams(message, toolSchemas),
        );
        if (found) {
          const modern = { ...identity, protocolVersion: found.protocolVersion };
          return new McpClient({ ...parts, init: found, modern });
        }
      }
      const init = await clientHandshake(peer, handshake);
      return new McpClient({ ...parts, init });
    } catch (error) {
      await transport.close().catch(() => {});
      throw error;
    }
  }

  /** Listens to a server notification or the end of the connection; returns the unsubscriber. */
  on<K extends keyof ClientEvents>(event: K, listener: (value: ClientEvents[K]) => void): () => void {
    // Statelessly, change notifications come only on a subscriptions/listen stream: open it on demand.
    const kind = LIST_EVENTS[event as string];
    if (this.listening && kind && this.capabilities[kind]?.listChanged)
      this.listening.want({ [`${kind}ListChanged`]: true });
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
    return this.send<T, T>(method, params, options, same);
  }

  /**
   * A request whose result goes through `map` in the same step that takes the answer and handles
   * its failures: one promise reaction per call, not one per stage.
   */
  private send<T, R>(
    method: string,
    params: Record<string, unknown> | undefined,
    options: RequestOptions | undefined,
    map: (result: T) => R,
  ): Promise<R> {
    const modern = this.modern;
    if (modern) {
      return modernRequest<T, R>(this.peer, method, params, modern, this.answer, options, map, (error) => {
        // A broken response stream loses the request: it is sent again, as a new request.
        if (
          !(error instanceof McpError) ||
          !(error.data as { streamBroken?: boolean } | undefined)?.streamBroken
        )
          throw error;
        return modernRequest<T, R>(this.peer, method, params, modern, this.answer, options, map);
      });
    }
    return this.peer.requestThen<T, R>(method, params, options, {
      map,
      recover: async (error) => {
        if (!isSessionExpired(error) || !hasSession(this.transport)) throw error;
        // The server forgot the session (restart, expiry): start a new one once, then retry.
        await this.reinitialize(this.transport);
        return map(await this.peer.request<T>(method, params, options));
      },
    });
  }

  /** A new handshake on the same transport; concurrent callers share it. */
  private reinitialize(transport: { resetSession(): void }): Promise<void> {
    this.reinitializing ??= (async () => {
      transport.resetSession();
      this.init = await clientHandshake(this.peer, this.handshake);
    })().finally(() => {
      this.reinitializing = undefined;
    });
    return this.reinitializing;
  }

  /** Checks the server is alive. */
  async ping(options?: RequestOptions): Promise<void> {
    // The stateless revision has no ping; discovery is the cheapest round trip it has.
    await this.request(this.modern ? "server/discover" : "ping", undefined, options);
  }

  /** One page of `tools/list`. */
  listToolsPage(cursor?: string, options?: RequestOptions): Promise<{ tools: Tool[]; nextCursor?: string }> {
    return this.page("tools/list", cursor, options);
  }

  /** Every tool the server offers, following every page. */
  async listTools(options?: RequestOptions): Promise<Tool[]> {
    const tools = await this.all<Tool>("tools/list", "tools", options);
    for (const tool of tools) this.toolSchemas.set(tool.name, tool.inputSchema);
    if (!this.modern || !hasSession(this.transport)) return tools;
    // Over HTTP, a tool whose x-mcp-header annotations are invalid cannot be called safely (SEP-2243).
    return tools.filter((tool) => {
      const headers = paramHeadersOf(tool.inputSchema);
      if (typeof headers === "string") this.events.emit("warning", `Tool ${tool.name} left out: ${headers}`);
      return typeof headers !== "string";
    });
  }

  /**
   * Calls a tool. A tool's own failure comes back as a result with `isError: true`; only protocol
   * and transport failures reject.
   */
  callTool(name: string, args: Record<string, unknown> = {}, options?: RequestOptions): Promise<ToolResult> {
    const params: Record<string, unknown> = { name, arguments: args };
    // Built here with the identity's _meta, the params need no copy to add it.
    if (this.modern) params._meta = sharedMeta(this.modern);
    return this.send("tools/call", params, options, toToolResult);
  }

  /** Every tool of the server (all pages of tools/list) as `Tool`s for an agent. */
  asTools(options?: AsToolsOptions): Promise<McpTool[]> {
    return asTools(this, options);
  }

  /** Every resource the server lists, following every page. */
  listResources(options?: RequestOptions): Promise<Resource[]> {
    return this.all("resources/list", "resources", options);
  }

  /** Every resource template, following every page. */
  listResourceTemplates(options?: RequestOptions): Promise<ResourceTemplate[]> {
    return this.all("resources/templates/list", "resourceTemplates", options);
  }

  /** Reads a resource: text contents carry `text`, binary ones base64 `blob`. */
  readResource(uri: string, options?: RequestOptions): Promise<ReadResourceResult> {
    return this.cached<ReadResourceResult>("resources/read", { uri }, options);
  }

  /** Asks for `resourceUpdated` events when `uri` changes. */
  async subscribeResource(uri: string, options?: RequestOptions): Promise<void> {
    this.require(this.capabilities.resources?.subscribe, "resource subscriptions (resources.subscribe)");
    if (this.modern) {
      this.listening!.want({ resourceSubscriptions: [...new Set(this.listening!.resources).add(uri)] });
      return;
    }
    await this.request("resources/subscribe", { uri }, options);
  }

  async unsubscribeResource(uri: string, options?: RequestOptions): Promise<void> {
    this.require(this.capabilities.resources?.subscribe, "resource subscriptions (resources.subscribe)");
    if (this.modern) {
      this.listening!.want({ resourceSubscriptions: this.listening!.resources.filter((u) => u !== uri) });
      return;
    }
    await this.request("resources/unsubscribe", { uri }, options);
  }

  /** Every prompt, following every page. */
  listPrompts(options?: RequestOptions): Promise<Prompt[]> {
    return this.all("prompts/list", "prompts", options);
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
    // 2024-11-05 had completion/complete but no capability to declare it.
    if (this.protocolVersion !== "2024-11-05") this.require(this.capabilities.completions, "completions");
    const params: Record<string, unknown> = { ref, argument };
    if (context) params.context = { arguments: context };
    const result = await this.request<CompleteResult>("completion/complete", params, options);
    return result.completion;
  }

  /** Asks the server to send log messages at `level` and above. */
  async setLoggingLevel(level: LoggingLevel, options?: RequestOptions): Promise<void> {
    this.require(this.capabilities.logging, "logging");
    if (this.modern) {
      // Statelessly the level travels in every request's _meta.
      this.modern.logLevel = level;
      return;
    }
    await this.request("logging/setLevel", { level }, options);
  }

  /** Replaces the roots and tells the server they changed. */
  setRoots(roots: Root[]): void {
    this.rootsState.roots = roots;
    // Statelessly the server asks for roots when it needs them; there is nothing to announce.
    if (!this.modern) this.peer.notify("notifications/roots/list_changed");
  }

  /** Ends the connection; for stdio, the server's process tree is gone when this resolves. */
  close(): Promise<void> {
    this.listening?.close();
    return this.peer.close();
  }

  private require(capability: unknown, what: string): void {
    if (!capability) throw new McpError(ErrorCode.MethodNotFound, `The server does not offer ${what}`);
  }

  private page<T>(method: string, cursor: string | undefined, options?: RequestOptions): Promise<T> {
    return this.cached<T>(method, cursor === undefined ? undefined : { cursor }, options);
  }

  /** A cacheable request: answered from the cache while the server's `ttlMs` lasts. */
  private async cached<T>(
    method: string,
    params: Record<string, unknown> | undefined,
    options?: RequestOptions,
  ): Promise<T> {
    const key = ResultCache.key(method, params);
    const hit = this.cache.get(key);
    if (hit) return hit as T;
    const result = await this.request<Record<string, unknown>>(method, params, options);
    this.cache.put(key, result);
    return result as T;
  }

  private all<T>(method: string, key: string, options?: RequestOptions): Promise<T[]> {
    return allPages<T>((m, cursor) => this.page(m, cursor, options), method, key);
  }
}
