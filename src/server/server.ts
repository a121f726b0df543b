import type { MessageTrace } from "../protocol/peer.js";
import { LEGACY_VERSIONS } from "../protocol/revisions/index.js";
import type { SchemaLike } from "../protocol/schema/validator.js";
import type { Implementation } from "../protocol/types/base.js";
import type { ServerCapabilities } from "../protocol/types/lifecycle.js";
import { StdioServerTransport, type StdioServerTransportOptions } from "../transports/stdio/server.js";
import type { Transport } from "../transports/transport.js";
import { RequestContext } from "./context.js";
import { type ServerSession, ServerSession as Session, type SessionHost } from "./session.js";
import { type ToolArgs, type ToolConfig, type ToolHandler, ToolRegistry } from "./tools.js";

/** Who the server is, and what it tells clients about using it. */
export interface ServerInfo extends Implementation {
  /** Sent in the `initialize` result: how to use this server. */
  instructions?: string;
}

export interface ServerOptions {
  /** Items per page of list results. Default 1000. */
  pageSize?: number;
  /** Timeout of requests the server sends (sampling, elicitation, roots), ms. Default 60 s. */
  requestTimeout?: number;
  /** Sees every message of every session. */
  trace?: MessageTrace;
  /** Protocol versions to accept, newest first. Default: every handshake-era version. */
  supportedVersions?: readonly string[];
}

/**
 * An MCP server: register tools (and, in later layers, resources and prompts), then serve them
 * over stdio, HTTP or any transport. One server serves any number of sessions.
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
  private readonly sessions = new Set<ServerSession>();
  private listChangedQueued = false;

  constructor(
    info: ServerInfo,
    private readonly options: ServerOptions = {},
  ) {
    const { instructions, ...serverInfo } = info;
    this.serverInfo = serverInfo;
    this.instructions = instructions;
    this.supportedVersions = options.supportedVersions ?? LEGACY_VERSIONS;
    this.tools = new ToolRegistry(options.pageSize ?? 1000, () => this.toolsChanged());
  }

  /**
   * Registers a tool. Arguments are validated against `input` before the handler runs; a handler
   * may return a string, content blocks, a `CallToolResult`, or the structured value when `output`
   * is given. A thrown error becomes an `isError` result the model can read.
   */
  tool<I extends SchemaLike | undefined = undefined, O extends SchemaLike | undefined = undefined>(
    name: string,
    config: ToolConfig<I, O>,
    handler: ToolHandler<ToolArgs<I>>,
  ): this {
    this.tools.add(name, config, handler);
    return this;
  }

  /** Removes a tool; connected clients are told the list changed. */
  removeTool(name: string): boolean {
    return this.tools.remove(name);
  }

  /** The capabilities this server declares in `initialize`. */
  capabilities(): ServerCapabilities {
    return { tools: { listChanged: true } };
  }

  /** @internal */
  install(session: ServerSession): void {
    this.sessions.add(session);
    const peer = session.peer;
    peer.setRequestHandler("tools/list", (params) => this.tools.list(params.cursor));
    peer.setRequestHandler("tools/call", (params, request) =>
      this.tools.call(params, new RequestContext(request, session)),
    );
  }

  /** @internal */
  release(session: ServerSession): void {
    this.sessions.delete(session);
  }

  /** Serves one client over a transport; resolves once the transport is started. */
  async connect(transport: Transport): Promise<ServerSession> {
    const session = new Session(this, transport, {
      requestTimeout: this.options.requestTimeout,
      trace: this.options.trace,
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

  /** Ends every session. */
  async close(): Promise<void> {
    await Promise.all([...this.sessions].map((session) => session.close()));
  }

  /** Coalesces changes made in one tick into one notification per session. */
  private toolsChanged(): void {
    if (this.listChangedQueued || this.sessions.size === 0) return;
    this.listChangedQueued = true;
    queueMicrotask(() => {
      this.listChangedQueued = false;
      for (const session of this.sessions) {
        if (session.revision) session.notify("notifications/tools/list_changed");
      }
    });
  }
}
