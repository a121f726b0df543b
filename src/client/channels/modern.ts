import { McpError } from "../../jsonrpc/errors.js";
import type { RequestOptions } from "../../protocol/engine/outgoing.js";
import type { Peer } from "../../protocol/engine/peer.js";
import { type Revision, revisionOf } from "../../protocol/revisions/index.js";
import type { Transport } from "../../protocol/transport.js";
import type { LoggingLevel } from "../../protocol/types/client-features.js";
import type { InitializeResult } from "../../protocol/types/lifecycle.js";
import type { Tool } from "../../protocol/types/tools.js";
import { paramHeadersOf } from "../../transports/http/shared/param-headers.js";
import type { Channel, FeatureAnswerer, ListKind } from "./channel.js";
import { ListenStream } from "./listen.js";
import { type ModernIdentity, modernRequest, sharedMeta } from "./stateless.js";

/**
 * Stateless requests (2026-07-28): each carries the client's identity in `_meta`; the log level
 * travels there too; change notifications and resource updates come on a `subscriptions/listen`
 * stream, opened on demand.
 */
export class ModernChannel implements Channel {
  readonly era = "modern";
  readonly revision: Revision;
  private readonly listening: ListenStream;
  /** Who waits on each task's `notifications/tasks`. */
  private readonly watchers = new Map<string, Set<(task: Record<string, unknown>) => void>>();

  constructor(
    private readonly peer: Peer,
    private readonly transport: Transport,
    private readonly identity: ModernIdentity,
    private readonly answer: FeatureAnswerer,
    readonly server: InitializeResult,
    /** Tools whose calls may be sent twice: listed as read-only or idempotent. */
    private readonly safeToRepeat: ReadonlySet<string> = new Set(),
  ) {
    // Discovery settled on a version the client speaks.
    this.revision = revisionOf(server.protocolVersion)!;
    this.listening = new ListenStream(peer, identity);
    peer.setNotificationHandler("notifications/tasks", (params) => {
      const watching = this.watchers.get(String(params?.taskId));
      if (watching) for (const listener of watching) listener(params as Record<string, unknown>);
    });
  }

  /** Hears of a task's changes on the listen stream (SEP-2663), until the returned function is called. */
  watchTask(taskId: string, listener: (task: Record<string, unknown>) => void): () => void {
    let watching = this.watchers.get(taskId);
    if (!watching) {
      watching = new Set();
      this.watchers.set(taskId, watching);
      this.listening.want({ taskIds: [...this.watchers.keys()] });
    }
    watching.add(listener);
    return () => {
      watching.delete(listener);
      if (watching.size > 0 || this.watchers.get(taskId) !== watching) return;
      this.watchers.delete(taskId);
      this.listening.want({ taskIds: [...this.watchers.keys()] });
    };
  }

  send<T, R>(
    method: string,
    params: Record<string, unknown> | undefined,
    options: RequestOptions | undefined,
    map: (result: T) => R,
  ): Promise<R> {
    const { peer, identity, answer } = this;
    return modernRequest<T, R>(peer, method, params, identity, answer, options, map, (error) => {
      if (
        !(error instanceof McpError) ||
        !(error.data as { streamBroken?: boolean } | undefined)?.streamBroken
      )
        throw error;
      // A broken response stream loses the request. It is sent again once, as a new request, if
      // that is safe: a tool the server did not say is read-only or idempotent may have run.
      const tool = method === "tools/call" ? String(params?.name) : undefined;
      if (tool !== undefined && !this.safeToRepeat.has(tool)) {
        throw new McpError(
          error.code,
          `${error.message}; tool ${tool} may have run, so it was not sent again: call it again if that is safe`,
          error.data,
        );
      }
      return modernRequest<T, R>(peer, method, params, identity, answer, options, map);
    });
  }

  /** The stateless revision has no ping; discovery is the cheapest round trip it has. */
  async ping(options?: RequestOptions): Promise<void> {
    await this.send("server/discover", undefined, options, (result) => result);
  }

  toolCallParams(name: string, args: Record<string, unknown>): Record<string, unknown> {
    // Built here with the identity's _meta, the params need no copy to add it.
    return { name, arguments: args, _meta: sharedMeta(this.identity) };
  }

  async subscribe(uri: string): Promise<void> {
    this.listening.want({ resourceSubscriptions: [...new Set(this.listening.resources).add(uri)] });
  }

  async unsubscribe(uri: string): Promise<void> {
    this.listening.want({ resourceSubscriptions: this.listening.resources.filter((u) => u !== uri) });
  }

  /** The level travels in every request's `_meta`. */
  async setLogLevel(level: LoggingLevel): Promise<void> {
    this.identity.logLevel = level;
  }

  /** The server asks for roots when it needs them: there is nothing to announce. */
  announceRoots(): void {}

  listen(kind: ListKind): void {
    this.listening.want({ [`${kind}ListChanged`]: true });
  }

  /** Where arguments are mirrored in headers, a tool whose `x-mcp-header`s are invalid cannot be called safely (SEP-2243). */
  usableTools(tools: Tool[], warn: (message: string) => void): Tool[] {
    if (!this.transport.useModern) return tools;
    return tools.filter((tool) => {
      const headers = paramHeadersOf(tool.inputSchema);
      if (typeof headers === "string") warn(`Tool ${tool.name} left out: ${headers}`);
      return typeof headers !== "string";
    });
  }

  close(): void {
    this.listening.close();
  }
}
