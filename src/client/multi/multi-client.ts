import { Emitter } from "../../util/emitter.js";
import type { OAuthOptions } from "../auth/options.js";
import { MemoryTokenStore } from "../auth/store.js";
import type { McpClient } from "../client.js";
import type { CommonClientOptions } from "../connect/options.js";
import type { McpToolOptions } from "../tools/tool-adapter.js";
import {
  expandServerConfig,
  type McpServersConfig,
  parseConfig,
  readConfigFile,
  type ServerConfig,
} from "./config.js";
import { SERVER_ENTRY } from "./config-schema.js";
import { ServerConnection, type ServerHealth, type ServerState } from "./connection.js";
import type { CollisionPolicy } from "./naming.js";
import { DEFAULT_RECONNECT, type ReconnectPolicy } from "./reconnect.js";
import { type MultiServerTool, type PerToolOptions, routeTools, type ToolSelection } from "./router.js";

/** Options of `MultiServerClient.connect` and `fromConfigFile`. */
export interface MultiServerOptions extends Omit<McpToolOptions, "name"> {
  /** How long each server may take to start, shake hands and list its tools, in ms; default 30 000. */
  connectTimeout?: number;
  /** Reject the whole connect (closing what did connect) if any server fails; default `false`. */
  failOnError?: boolean;
  /** Tool names shared by servers; default `"prefix-on-conflict"`. */
  collisions?: CollisionPolicy;
  /** Options per tool, keyed `"tool"` or `"server/tool"`: `{ "fs/read_file": { timeout: 5000 } }`. */
  tools?: PerToolOptions;
  /** Reconnect lost servers with exponential backoff (default), or not (`false`). */
  reconnect?: ReconnectPolicy | false;
  /** Client options for every server (sampling, roots, clientInfo…), or per server name. */
  clientOptions?: CommonClientOptions | ((server: string) => CommonClientOptions);
  /** Each line a stdio server writes to stderr. */
  onStderr?: (server: string, line: string) => void;
  /**
   * OAuth options (`onAuthorizationUrl`, `store`, `grant`…) for every server whose entry has
   * `auth`, or per server name; the entry's own `auth` settings win. Tokens are kept in memory for
   * the life of this client unless a `store` is given.
   */
  auth?: OAuthOptions | ((server: string) => OAuthOptions);
  /**
   * Headers computed for each request to an HTTP server, added to its entry's own (a credential of
   * this program's, fetched or refreshed as needed): called with the server's name.
   */
  requestHeaders?: (server: string) => Record<string, string> | Promise<Record<string, string>>;
  /**
   * Expand `${VAR}` and `${VAR:-default}` in each server's entry from this environment as that server
   * connects. A server whose variable is not set fails alone, with a `ConfigError` in `failures`; the
   * others connect. `fromConfigFile` expands from `process.env` unless told otherwise.
   */
  env?: Record<string, string | undefined>;
  /** The file the config was read from: its errors name it, and relative `cwd`s are resolved against its folder. */
  configFile?: string;
  /**
   * Listeners added before anything connects, so they hear what happens during `connect` too, such as
   * `serverSkipped` for each server left out: `{ on: { serverSkipped: (s) => console.error(s) } }`.
   */
  on?: MultiServerListeners;
}

/** Options of `fromConfigFile`: `env` (where `${VAR}` values come from) defaults to `process.env`. */
export type MultiServerFileOptions = MultiServerOptions;

/** A server left out when connecting: `disabled` in its entry, or `failed` (its config or its connect). */
export type SkippedServer =
  | { server: string; reason: "disabled" }
  | { server: string; reason: "failed"; error: Error };

/** Events of a `MultiServerClient`. */
export interface MultiServerEvents {
  /** A server's tools were listed again (after a reconnect, or on its `tools/list_changed`): call `tools()` again. */
  toolsChanged: { server: string; reason: "reconnected" | "listChanged" };
  /** A server changed state; with the error when it lost its connection or failed. */
  stateChanged: { server: string; state: ServerState; error?: Error };
  /**
   * While connecting, a server was left out: its entry is `disabled`, or it failed (a `ConfigError`
   * such as a missing `${VAR}`, or its connect failed; it is also in `failures`). Listen with the
   * `on` option, which is in place before `connect` resolves.
   */
  serverSkipped: SkippedServer;
  /**
   * A server's client worked around something, such as a tool left out because its schema is too
   * deep, or its config entry holds a key another host writes (Cline's `alwaysAllow`), ignored.
   */
  warning: { server: string; message: string };
}

/** Listeners of `MultiServerEvents`, by event, as the `on` option takes them. */
export type MultiServerListeners = {
  [K in keyof MultiServerEvents]?: (value: MultiServerEvents[K]) => void;
};

/** A server that could not be connected: its entry could not be used (a `ConfigError`), or its connect failed. */
export interface ServerFailure {
  server: string;
  error: Error;
}

/** With `failOnError`: which servers failed (the others were closed). */
export class MultiServerConnectError extends Error {
  override readonly name = "MultiServerConnectError";
  constructor(readonly failures: ServerFailure[]) {
    super(
      `Could not connect to ${failures.map(({ server, error }) => `server "${server}" (${error.message})`).join(", ")}`,
    );
  }
}

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
    const { env, configFile } = options;
    const settings = {
      connectTimeout: options.connectTimeout ?? 30_000,
      timeout: options.timeout,
      reconnect:
        options.reconnect === false ? (false as const) : { ...DEFAULT_RECONNECT, ...options.reconnect },
      clientOptions: options.clientOptions,
      onStderr: options.onStderr,
      auth: authFor(options.auth),
      requestHeaders: options.requestHeaders,
      prepare:
        env || configFile
          ? (name: string, server: ServerConfig) =>
              expandServerConfig(name, server, { env, file: configFile })
          : undefined,
    };
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

/** Each server's OAuth options, with one memory store shared by all unless they name one. */
function authFor(given: MultiServerOptions["auth"]) {
  const store = new MemoryTokenStore();
  return (server: string) => {
    const options = (typeof given === "function" ? given(server) : given) ?? {};
    return { ...options, store: options.store ?? store };
  };
}
