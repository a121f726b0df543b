import { Emitter } from "../../util/emitter.js";
import type { McpClient } from "../client.js";
import { connectionSettings } from "./client-options.js";
import { type McpServersConfig, parseConfig, readConfigFile, type ServerConfig } from "./config.js";
import { SERVER_ENTRY } from "./config-schema.js";
import { ServerConnection } from "./connection.js";
import {
  MultiServerConnectError,
  type MultiServerEvents,
  type MultiServerFileOptions,
  type MultiServerOptions,
  type ServerFailure,
  type ServerHealth,
} from "./options.js";
import { type MultiServerTool, routeTools, type ToolSelection } from "./router.js";

/**
 * Many MCP servers as one, configured with the `mcpServers` map of Claude Desktop and others.
 * Servers connect in parallel; one that fails is reported in `failures` and by a `serverSkipped`
 * event, and left out (or, with `failOnError`, the connect rejects). `tools()` gives their tools
 * with unique names, each call routed to its server; lost servers reconnect by themselves.
 * `close()` ends every server.
 *
 * @example
 * const mcp = await MultiServerClient.connect({
 *   fs: { command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"] },
 *   math: { url: "http://127.0.0.1:3000/mcp" },
 * });
 * const tools = mcp.tools({ servers: ["fs"] });
 * await mcp.close();
 */
export class MultiServerClient {
  private readonly events = new Emitter<MultiServerEvents>();
  private closing: Promise<void> | undefined;

  private constructor(
    private readonly connections: ServerConnection[],
    private readonly options: MultiServerOptions,
    /** The servers that could not be connected at first (they are not retried until `reconnect(name)`). */
    readonly failures: ServerFailure[],
  ) {
    for (const [event, listener] of Object.entries(options.on ?? {})) {
      if (listener) this.events.on(event as keyof MultiServerEvents, listener as (value: unknown) => void);
    }
  }

  /**
   * Connects every server of `config` (`{ mcpServers: { … } }` or the map itself) that is not
   * `disabled`. The config is checked first: an unknown key, a value of the wrong type or an entry
   * without `command` or `url` rejects with a `ConfigError`, before anything starts.
   */
  static async connect(
    config: McpServersConfig | Record<string, ServerConfig>,
    options: MultiServerOptions = {},
  ): Promise<MultiServerClient> {
    const wrapped =
      "mcpServers" in config && typeof config.mcpServers === "object" ? config : { mcpServers: config };
    // Keys other hosts write are reported as `warning` events when listened to, else on stderr.
    const warn = options.on?.warning;
    const { mcpServers } = parseConfig(
      wrapped,
      options.configFile,
      SERVER_ENTRY,
      warn ? ({ server, message }) => warn({ server: server ?? "", message }) : undefined,
    );
    const settings = connectionSettings(options);
    const failures: ServerFailure[] = [];
    const connections: ServerConnection[] = [];
    const disabled: string[] = [];
    let multi: MultiServerClient | undefined;
    for (const [name, server] of Object.entries(mcpServers)) {
      if (server.disabled) {
        disabled.push(name);
        continue;
      }
      connections.push(
        new ServerConnection(name, server, settings, {
          state: (state, error) =>
            multi?.events.emit(
              "stateChanged",
              error ? { server: name, state, error } : { server: name, state },
            ),
          toolsChanged: (reason) => multi?.events.emit("toolsChanged", { server: name, reason }),
          warning: (message) => multi?.events.emit("warning", { server: name, message }),
        }),
      );
    }
    multi = new MultiServerClient(connections, options, failures);
    for (const server of disabled) multi.events.emit("serverSkipped", { server, reason: "disabled" });
    const results = await Promise.allSettled(
      connections.map((connection) =>
        connection.start().catch((error: Error) => {
          multi.events.emit("serverSkipped", { server: connection.name, reason: "failed", error });
          throw error;
        }),
      ),
    );
    results.forEach((result, i) => {
      if (result.status === "rejected") failures.push({ server: connections[i]!.name, error: result.reason });
    });
    if (failures.length > 0 && options.failOnError) {
      await multi.close();
      throw new MultiServerConnectError(failures);
    }
    return multi;
  }

  /**
   * Reads and checks a config file, then connects its servers, each with its `${VAR}`s and
   * `${VAR:-default}`s expanded (from `process.env` unless `env` is given) and relative `cwd`s
   * resolved against the file's folder. Invalid JSON or an invalid entry rejects with a `ConfigError`
   * (file, line and column, server, key); a missing variable fails only the server that uses it.
   */
  static async fromConfigFile(
    path: string,
    options: MultiServerFileOptions = {},
  ): Promise<MultiServerClient> {
    // Its warnings are reported once, by connect.
    return MultiServerClient.connect(await readConfigFile(path, SERVER_ENTRY, () => {}), {
      ...options,
      env: options.env ?? process.env,
      configFile: path,
    });
  }

  /** The configured servers (not `disabled`), in config order. */
  get servers(): string[] {
    return this.connections.map((connection) => connection.name);
  }

  /**
   * Like `McpClient.asTools()`: lists every connected server's tools again (the selected ones'),
   * then gives them as {@link MultiServerClient.tools} does. `tools()` gives the last listing at
   * once, without asking the servers.
   */
  async asTools(selection: ToolSelection = {}): Promise<MultiServerTool[]> {
    const names = selection.servers ?? this.servers;
    await Promise.all(names.map((name) => this.connection(name).refresh()));
    return this.tools(selection);
  }

  /**
   * The tools of every server (or the selected ones), as `AgentTool`s named for the model and routed to
   * their server. Names follow the `collisions` policy and are `[a-zA-Z0-9_-]{1,64}`. Call again
   * after `toolsChanged`. Throws for an unknown server name, or a conflict under `"error"`.
   */
  tools(selection: ToolSelection = {}): MultiServerTool[] {
    for (const name of selection.servers ?? []) this.connection(name);
    const {
      tools: perTool = {},
      timeout,
      resetTimeoutOnProgress,
      maxTotalTimeout,
      throwOnToolError,
    } = this.options;
    return routeTools(this.connections, selection, {
      collisions: this.options.collisions ?? "prefix-on-conflict",
      defaults: { timeout, resetTimeoutOnProgress, maxTotalTimeout, throwOnToolError },
      perTool,
    });
  }

  /**
   * The `McpClient` of one server, for resources, prompts and the rest. It is replaced when the
   * server reconnects: ask again rather than keep it. Throws if the server never connected.
   */
  client(name: string): McpClient {
    const client = this.connection(name).client;
    if (!client) throw new Error(`Server "${name}" is not connected (${this.connection(name).state})`);
    return client;
  }

  /** Each server's state, last error, tool count and reconnect count. */
  health(): Record<string, ServerHealth> {
    return Object.fromEntries(this.connections.map((connection) => [connection.name, connection.health()]));
  }

  /** Connects one server again now: after a failure, or to start over. */
  async reconnect(name: string): Promise<void> {
    await this.connection(name).restart();
    const index = this.failures.findIndex((failure) => failure.server === name);
    if (index >= 0) this.failures.splice(index, 1);
  }

  /** Listens to an event; returns the unsubscriber. */
  on<K extends keyof MultiServerEvents>(
    event: K,
    listener: (value: MultiServerEvents[K]) => void,
  ): () => void {
    return this.events.on(event, listener);
  }

  /** Closes every server; stdio servers and their whole process trees are gone when this resolves. */
  close(): Promise<void> {
    this.closing ??= Promise.all(this.connections.map((connection) => connection.close())).then(() => {
      this.events.removeAll();
    });
    return this.closing;
  }

  private connection(name: string): ServerConnection {
    const found = this.connections.find((connection) => connection.name === name);
    if (!found) throw new Error(`No server named "${name}" (servers: ${this.servers.join(", ") || "none"})`);
    return found;
  }
}
