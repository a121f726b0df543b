import type { OAuthOptions } from "../auth/options.js";
import type { CommonClientOptions } from "../connect/options.js";
import type { McpToolOptions } from "../tools/tool-adapter.js";
import type { CollisionPolicy } from "./naming.js";
import type { ReconnectPolicy } from "./reconnect.js";

/** Per-tool options, keyed `"tool"` (that name on any server) or `"server/tool"` (which wins). */
export type PerToolOptions = Record<string, Omit<McpToolOptions, "name">>;

/** Where a server stands. */
export type ServerState = "connecting" | "connected" | "reconnecting" | "failed" | "closed";

/** One server's health, as `MultiServerClient.health()` reports it. */
export interface ServerHealth {
  state: ServerState;
  transport: "stdio" | "http";
  /** Why it last failed or lost its connection; kept after a successful reconnect. */
  lastError?: Error;
  /** How many tools it offers (the last list, while reconnecting). */
  tools: number;
  /** How many times it was reconnected. */
  reconnects: number;
}

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
