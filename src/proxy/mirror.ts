/**
 * Keeps an `McpServer`'s tools, resources, resource templates and prompts in step with those of its
 * upstream servers, each forwarding to the server that offers it. Registering and removing through
 * the `McpServer` is what tells connected clients that a list changed.
 */
import type { McpClient } from "../client/client.js";
import type { ServerMiddleware } from "../server/dispatch/middleware.js";
import type { McpServer } from "../server/server.js";
import { describeError } from "./forward.js";
import type { MirrorOptions, Upstreams } from "./mirror-options.js";
import { syncPrompts } from "./mirror-prompts.js";
import { syncResources } from "./mirror-resources.js";
import type { Registered, SyncContext } from "./mirror-sync.js";

import { ToolMirror } from "./mirror-tools.js";
import type { ForwardedCalls } from "./questions.js";

/**
 * Mirrors the upstreams onto `server`. Tools are re-read on each upstream's `tools/list_changed`
 * (and after a reconnect), resources, templates and prompts on theirs; what changed is removed
 * and registered again, so each downstream client gets one `list_changed` per list.
 */
export class Mirror {
  private readonly resources = new Map<string, Registered>();
  private readonly templates = new Map<string, Registered>();
  private readonly prompts = new Map<string, Registered>();
  /** Per server: the listeners on its current client. */
  private readonly followers = new Map<string, () => void>();
  /** Per server: resource and prompt syncs run one after another. */
  private readonly queues = new Map<string, Promise<void>>();
  private readonly unsubscribe: (() => void)[] = [];
  private readonly warned = new Set<string>();
  private readonly toolMirror: ToolMirror;
  private closed = false;
  /** The mirror as the resource and prompt syncs see it. */
  private readonly context: SyncContext;

  constructor(
    private readonly server: McpServer,
    private readonly upstreams: Upstreams,
    private readonly options: MirrorOptions,
    /** The calls in flight: where the upstreams' questions and log messages go. */
    private readonly calls: ForwardedCalls,
  ) {
    this.context = {
      target: server,
      upstreams,
      closed: () => this.closed,
      warn: (message) => this.warn(message),
    };
    this.toolMirror = new ToolMirror(server, upstreams, options, calls, (message) => this.warn(message));
  }

  /** Registers everything the connected upstreams offer, and follows their changes. */
  async start(): Promise<void> {
    const { multi } = this.upstreams;
    this.unsubscribe.push(
      multi.on("toolsChanged", () => this.syncTools()),
      multi.on("stateChanged", ({ server, state }) => {
        if (state === "connected") void this.follow(server);
      }),
    );
    this.syncTools();
    const health = multi.health();
    await Promise.all(
      multi.servers.filter((name) => health[name]?.state === "connected").map((name) => this.follow(name)),
    );
  }

  /** Stops following the upstreams (they are closed by their owner). */
  stop(): void {
    this.closed = true;
    for (const off of this.unsubscribe.splice(0)) off();
    for (const off of this.followers.values()) off();
    this.followers.clear();
  }

  /** The proxy's steps of each tool call, as `tools/call` middleware of its server, each at its place. */
  toolCallMiddleware(): ServerMiddleware<"tools/call">[] {
    return this.toolMirror.serverMiddleware();
  }

  /** The per-caller filter of `tools/list` (none: `undefined`). */
  toolListMiddleware(): ServerMiddleware<"tools/list"> | undefined {
    return this.toolMirror.listMiddleware();
  }

  /** The tools clients see: their names, servers and names upstream. */
  exposedTools(): { name: string; server: string; tool: string }[] {
    return this.toolMirror.exposed();
  }

  /** How many tools of each server the allow and deny lists hide. */
  hiddenTools(): Record<string, number> {
    return this.toolMirror.hidden();
  }

  private warn(message: string): void {
    if (this.warned.has(message)) return;
    this.warned.add(message);
    this.options.onWarning?.(message);
  }

  private syncTools(): void {
    if (!this.closed) this.toolMirror.sync();
  }

  private labelOf(server: string): string {
    return this.upstreams.label(server);
  }

  // ----- following: resources, templates, prompts, logs -----

  /** Follows the server's current client: its list changes, logs and resource updates. */
  private follow(server: string): Promise<void> {
    if (this.closed) return Promise.resolve();
    let client: McpClient;
    try {
      client = this.upstreams.multi.client(server);
    } catch {
      return Promise.resolve();
    }
    this.followers.get(server)?.();
    const registered = { resources: this.resources, templates: this.templates };
    const resources = () => syncResources(this.context, registered, server, client);
    const prompts = () => syncPrompts(this.context, this.prompts, server, client);
    const offs = [
      client.on("resourcesListChanged", () => void this.enqueue(server, resources)),
      client.on("promptsListChanged", () => void this.enqueue(server, prompts)),
      client.on("resourceUpdated", ({ uri }) => {
        if (this.resources.get(uri)?.server === server) this.server.resourceUpdated(uri);
      }),
      client.on("log", ({ level, logger, data }) => {
        const name = this.upstreams.logger(server, logger);
        // While the calls in flight to the server come from one session, the message is that
        // caller's, in either era. Otherwise every session that asked for messages gets it.
        const call = this.calls.soleCall(server);
        if (call) call.front.log(level, data, name);
        else this.server.log(level, data, name);
      }),
    ];
    // Ask for every message: each client of the proxy gets those its own level lets through.
    if (client.capabilities.logging) client.setLoggingLevel("debug").catch(() => {});
    this.followers.set(server, () => {
      for (const off of offs) off();
    });
    return this.enqueue(server, async () => {
      await resources();
      await prompts();
    });
  }

  /** Runs `work` after the server's syncs before it; never rejects. */
  private enqueue(server: string, work: () => Promise<void>): Promise<void> {
    const next = (this.queues.get(server) ?? Promise.resolve()).then(work).catch((error: unknown) => {
      this.warn(`${this.labelOf(server)}: ${describeError(error)}`);
    });
    this.queues.set(server, next);
    return next;
  }
}
