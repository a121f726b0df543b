import { createRequire } from "node:module";
import { clientHandshake } from "../protocol/handshake.js";
import { Peer, type RequestOptions } from "../protocol/peer.js";
import { type Revision, revisionOf } from "../protocol/revisions/index.js";
import type { Implementation, Result } from "../protocol/types/base.js";
import type { InitializeResult, ServerCapabilities } from "../protocol/types/lifecycle.js";
import type { CallToolResult, ListToolsResult, Tool } from "../protocol/types/tools.js";
import { StdioClientTransport } from "../transports/stdio/client.js";
import type { Transport } from "../transports/transport.js";
import type { ClientOptions } from "./options.js";
import { ToolResult } from "./tool-result.js";

const { version } = createRequire(import.meta.url)("../../package.json") as { version: string };

/**
 * An MCP client connected to one server. `McpClient.connect` spawns or reaches the server and
 * completes the handshake; `close()` ends the connection and, for stdio, the server's whole
 * process tree.
 *
 * @example
 * const client = await McpClient.connect({ command: "npx", args: ["-y", "@modelcontextprotocol/server-everything"] });
 * const result = await client.callTool("echo", { message: "hi" });
 * console.log(result.text());
 * await client.close();
 */
export class McpClient {
  /** The server's name, version and display data. */
  readonly serverInfo: Implementation;
  /** What the server can do. */
  readonly capabilities: ServerCapabilities;
  /** How the server says it should be used, if it says. */
  readonly instructions: string | undefined;
  /** The negotiated protocol version. */
  readonly protocolVersion: string;
  /** The negotiated revision's rules. */
  readonly revision: Revision;

  private constructor(
    /** The JSON-RPC engine, for methods this class has no wrapper for. */
    readonly peer: Peer,
    readonly transport: Transport,
    init: InitializeResult,
  ) {
    this.serverInfo = init.serverInfo;
    this.capabilities = init.capabilities;
    this.instructions = init.instructions;
    this.protocolVersion = init.protocolVersion;
    this.revision = revisionOf(init.protocolVersion)!;
  }

  /** Connects and completes the handshake. Rejects, and leaves nothing running, if either fails. */
  static async connect(options: ClientOptions): Promise<McpClient> {
    const transport = "transport" in options ? options.transport : new StdioClientTransport(options);
    const peer = new Peer(transport, { requestTimeout: options.requestTimeout, trace: options.trace });
    try {
      await peer.start();
      const init = await clientHandshake(peer, {
        clientInfo: options.clientInfo ?? { name: "mcpkit", version },
        capabilities: options.capabilities ?? {},
        protocolVersion: options.protocolVersion,
        timeout: options.handshakeTimeout,
      });
      return new McpClient(peer, transport, init);
    } catch (error) {
      await transport.close().catch(() => {});
      throw error;
    }
  }

  /** Whether the connection has ended. */
  get isClosed(): boolean {
    return this.peer.isClosed;
  }

  /** Registers a listener for the end of the connection (with the reason, if it failed). */
  onClose(listener: (error?: Error) => void): void {
    this.peer.onClose(listener);
  }

  /** Sends any request; the typed methods below are thin wrappers of this. */
  request<T = Result>(
    method: string,
    params?: Record<string, unknown>,
    options?: RequestOptions,
  ): Promise<T> {
    return this.peer.request<T>(method, params, options);
  }

  /** Checks the server is alive. */
  async ping(options?: RequestOptions): Promise<void> {
    await this.peer.request("ping", undefined, options);
  }

  /** One page of `tools/list`. */
  listToolsPage(cursor?: string, options?: RequestOptions): Promise<ListToolsResult> {
    return this.peer.request<ListToolsResult>(
      "tools/list",
      cursor === undefined ? undefined : { cursor },
      options,
    );
  }

  /** Every tool the server offers, following every page. */
  async listTools(options?: RequestOptions): Promise<Tool[]> {
    const tools: Tool[] = [];
    let cursor: string | undefined;
    const seen = new Set<string>();
    do {
      const page = await this.listToolsPage(cursor, options);
      for (const tool of page.tools) tools.push(tool);
      cursor = page.nextCursor;
      // A server that repeats a cursor would loop forever.
      if (cursor !== undefined) {
        if (seen.has(cursor)) throw new Error(`The server repeated the tools/list cursor ${cursor}`);
        seen.add(cursor);
      }
    } while (cursor !== undefined);
    return tools;
  }

  /**
   * Calls a tool. A tool's own failure comes back as a result with `isError: true`; only protocol
   * and transport failures reject.
   */
  async callTool(
    name: string,
    args: Record<string, unknown> = {},
    options?: RequestOptions,
  ): Promise<ToolResult> {
    const result = await this.peer.request<CallToolResult>("tools/call", { name, arguments: args }, options);
    return new ToolResult(result);
  }

  /** Ends the connection; for stdio, the server's process tree is gone when this resolves. */
  close(): Promise<void> {
    return this.peer.close();
  }
}
