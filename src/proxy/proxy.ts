/** `createProxyServer`: an `McpServer` whose tools, resources and prompts are those of other servers. */
import type { MultiServerClient } from "../client/multi/multi-client.js";
import type { ServerFailure } from "../client/multi/options.js";
import { placed } from "../server/dispatch/order.js";
import { McpServer, type ServerInfo, type ServerOptions } from "../server/server.js";
import { AccessPolicy } from "./access.js";
import { type AggregateOptions, connectAggregate } from "./aggregate.js";
import { type BridgeOptions, connectBridge } from "./bridge.js";
import { Mirror } from "./mirror.js";
import type { MirrorOptions, Upstreams } from "./mirror-options.js";
import { ToolOverrides } from "./overrides.js";
import { GatewayPolicy } from "./policy.js";
import { ForwardedCalls } from "./questions.js";
import { frontTasks } from "./tasks.js";

/** A bridge (`upstream`: one server, names kept) or an aggregate (`config`: many, `server__tool` names). */
export type ProxyOptions = BridgeOptions | AggregateOptions;

/** A tool as the proxy exposes it. */
export interface ExposedTool {
  /** The name clients see. */
  name: string;
  /** The server that offers it (its name in the config; for a bridge, the upstream's name). */
  server: string;
  /** Its name on that server. */
  tool: string;
}

/**
 * An `McpServer` that forwards to upstream servers: serve it like any other (`serveHttp`,
 * `serveStdio`, `connect`, `fetch`). Its lists follow the upstreams' and change when theirs do
 * (clients get `list_changed`). `close()` ends its sessions, then the upstreams (and their processes).
 */
export class ProxyServer extends McpServer {
  private readonly mirror: Mirror;

  /** @internal Use `createProxyServer`. */
  constructor(
    info: ServerInfo,
    options: ServerOptions,
    private readonly upstreams: Upstreams,
    mirrorOptions: MirrorOptions,
    private readonly calls: ForwardedCalls,
  ) {
    super(info, options);
    this.mirror = new Mirror(this, upstreams, mirrorOptions, calls);
    // Each at its place of MIDDLEWARE_ORDER: what the policy refuses, `use` middleware never sees.
    for (const step of this.mirror.toolCallMiddleware()) this.use("tools/call", step);
    const listed = this.mirror.toolListMiddleware();
    // What the policy hides of the list is the policy's.
    if (listed) this.use("tools/list", placed("policy", listed, ["incoming"]));
    this.use(
      "notifications/roots/list_changed",
      placed(
        "use",
        (_ctx, next) => {
          this.announceRoots();
          return next();
        },
        ["incoming"],
      ),
    );
  }

  /**
   * Tells every session upstream that a caller's roots changed: it asks again, within a call, and
   * the question reaches that call's caller. (The upstream clients answer `roots/list` with a
   * handler, so `setRoots` only announces.)
   */
  private announceRoots(): void {
    for (const server of this.upstreams.multi.servers) {
      try {
        this.upstreams.multi.client(server).setRoots([]);
      } catch {
        // not connected: it asks for roots afresh when it is
      }
    }
  }

  /** The upstream servers, for their health, clients and events. */
  get upstream(): MultiServerClient {
    return this.upstreams.multi;
  }

  /** The upstream servers by the names rules, audit lines and `ExposedTool.server` use. */
  get servers(): string[] {
    return this.upstreams.multi.servers.map((server) => this.upstreams.label(server));
  }

  /** The servers that could not be connected at first; their tools are left out until they reconnect. */
  get failures(): ServerFailure[] {
    return this.upstreams.multi.failures.map(({ server, error }) => ({
      server: this.upstreams.label(server),
      error,
    }));
  }

  /** The tools clients see now, in server order. */
  exposedTools(): ExposedTool[] {
    return this.mirror.exposedTools();
  }

  /** How many tools of each server the allow and deny lists hide (servers hiding none are absent). */
  hiddenTools(): Record<string, number> {
    return this.mirror.hiddenTools();
  }

  /** @internal */
  start(): Promise<void> {
    return this.mirror.start();
  }

  /** Ends every session, then closes the upstreams: stdio servers' process trees are gone when it resolves. */
  override async close(): Promise<void> {
    this.mirror.stop();
    this.calls.close();
    try {
      await super.close();
      // Closing ended the proxy's tasks: the upstream tasks they followed are cancelled first.
      await this.calls.tasks.drain(10_000);
    } finally {
      await this.upstreams.multi.close();
    }
  }
}

/**
 * Connects the upstreams and returns the proxy, its lists filled. With `upstream` it is a bridge:
 * one server, its names kept, its own server info. With `config` it is an aggregate of the
 * config's servers, tools named `server__tool`, prompts `server__prompt`, with `allowTools` and
 * `denyTools` per server entry. Either way `allow`/`deny` rules filter tools (a hidden tool is
 * neither listed nor callable: calling it answers `-32602`), and `audit` gets one record per call.
 * Rejects, leaving nothing running, if the upstream (bridge) or every server (aggregate) fails.
 *
 * @example
 * const audit = await AuditLog.open("audit.jsonl");
 * const proxy = await createProxyServer({ config: "mcp.json", deny: ["fs/write_*"], audit: audit.sink });
 * const http = await proxy.serveHttp({ port: 3000 }); // http://127.0.0.1:3000/mcp
 * // later: await http.close(); await proxy.close(); await audit.close();
 */
export async function createProxyServer(options: ProxyOptions): Promise<ProxyServer> {
  // Checked before anything starts.
  const access = options.access ? new AccessPolicy(options.access) : undefined;
  const given = new GatewayPolicy(options.policy ?? []);
  const givenTools = new ToolOverrides(options.tools);
  const calls = new ForwardedCalls(options.inputTimeout);
  const { upstreams, info, gateway } =
    "upstream" in options ? await connectBridge(options, calls) : await connectAggregate(options, calls);
  let policy: GatewayPolicy;
  let overrides: ToolOverrides;
  try {
    policy =
      gateway.policy.length === 0 ? given : new GatewayPolicy([...gateway.policy, ...(options.policy ?? [])]);
    overrides =
      Object.keys(gateway.tools).length === 0
        ? givenTools
        : new ToolOverrides({ ...gateway.tools, ...options.tools });
  } catch (error) {
    await upstreams.multi.close();
    throw error;
  }
  const offered = { tools: true, resources: false, prompts: false, completions: false };
  for (const server of upstreams.multi.servers) {
    let capabilities: Record<string, unknown>;
    try {
      capabilities = upstreams.multi.client(server).capabilities as Record<string, unknown>;
    } catch {
      continue; // not connected
    }
    offered.resources ||= capabilities.resources !== undefined;
    offered.prompts ||= capabilities.prompts !== undefined;
    offered.completions ||= capabilities.completions !== undefined;
  }
  const front = frontTasks(options.tasks, options.server?.extensions, upstreams.multi);
  const serverOptions: ServerOptions = {
    ...options.server,
    capabilities: { ...offered, ...options.server?.capabilities },
    extensions: front.extensions,
  };
  const proxy = new ProxyServer(
    info,
    serverOptions,
    upstreams,
    {
      audit: options.audit,
      onWarning: options.onWarning,
      maxResultSize: options.maxResultSize,
      maxConcurrency: options.maxConcurrency,
      maxQueued: options.maxQueued,
      access,
      policy: policy.isEmpty ? undefined : policy,
      overrides,
      middleware: options.middleware,
      trusted: (server) => upstreams.trusted(server),
      tasks: front.store,
    },
    calls,
  );
  try {
    await proxy.start();
  } catch (error) {
    await proxy.close().catch(() => {});
    throw error;
  }
  return proxy;
}
