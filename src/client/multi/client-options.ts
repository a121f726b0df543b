import { httpTransportOf } from "../../transports/kinds.js";
import type { OAuthOptions } from "../auth/options.js";
import { MemoryTokenStore } from "../auth/store.js";
import type { ClientOptions, CommonClientOptions, HttpClientOptions } from "../connect/options.js";
import { expandServerConfig, type ServerConfig } from "./config.js";
import type { MultiServerOptions } from "./options.js";
import { DEFAULT_RECONNECT, type ReconnectPolicy } from "./reconnect.js";

/** What every connection of one `MultiServerClient` shares. */
export interface ConnectionSettings {
  /** How long a server may take to connect and list its tools, in ms. */
  connectTimeout: number;
  /** Default request timeout when the server's config sets none. */
  timeout?: number;
  reconnect: Required<ReconnectPolicy> | false;
  clientOptions?: CommonClientOptions | ((server: string) => CommonClientOptions);
  onStderr?: (server: string, line: string) => void;
  /** Headers computed for each request to an HTTP server, beside its entry's. */
  requestHeaders?: (server: string) => Record<string, string> | Promise<Record<string, string>>;
  /** Makes an entry ready to connect (expands its variables); may throw, failing that server alone. */
  prepare?: (server: string, config: ServerConfig) => ServerConfig;
  /** OAuth options of the servers whose entry has `auth`; `store` is always set, so reconnects keep their tokens. */
  auth: (server: string) => OAuthOptions & Required<Pick<OAuthOptions, "store">>;
}

/**
 * The `McpClient.connect` options for one `mcpServers` entry: `command`/`args`/`env`/`cwd` for
 * stdio, `url`/`headers`/`transport` (or `type`) for HTTP (`"http"` meaning Streamable HTTP), plus the shared
 * client options. The handshake gets no longer than `connectTimeout`; the server's `timeout` is its
 * default request timeout.
 */
export function clientOptionsFor(
  name: string,
  config: ServerConfig,
  settings: ConnectionSettings,
): ClientOptions {
  const { clientOptions, onStderr, connectTimeout, timeout } = settings;
  const common = (typeof clientOptions === "function" ? clientOptions(name) : clientOptions) ?? {};
  const base: CommonClientOptions = {
    ...common,
    handshakeTimeout: Math.min(common.handshakeTimeout ?? connectTimeout, connectTimeout),
    requestTimeout: config.timeout ?? timeout ?? common.requestTimeout,
  };
  if ("command" in config) {
    const stdio: ClientOptions = { ...base, command: config.command, args: config.args ?? [] };
    if (config.env) stdio.env = config.env;
    if (config.inheritEnv) stdio.inheritEnv = true;
    if (config.cwd) stdio.cwd = config.cwd;
    if (onStderr) stdio.onStderr = (line) => onStderr(name, line);
    return stdio;
  }
  const http: HttpClientOptions = { ...base, url: config.url };
  const { requestHeaders } = settings;
  const given = config.headers;
  if (requestHeaders) {
    http.headers = async () => ({ ...given, ...(await requestHeaders(name)) });
  } else if (given) {
    http.headers = given;
  }
  if (config.auth) http.auth = { ...settings.auth(name), ...config.auth };
  const transport = config.transport ?? config.type;
  if (transport) http.transport = httpTransportOf(transport);
  return http;
}

/** The settings a `MultiServerClient`'s connections share, from its options. */
export function connectionSettings(options: MultiServerOptions): ConnectionSettings {
  const { env, configFile } = options;
  return {
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
        ? (name: string, server: ServerConfig) => expandServerConfig(name, server, { env, file: configFile })
        : undefined,
  };
}

/** Each server's OAuth options, with one memory store shared by all unless they name one. */
function authFor(given: MultiServerOptions["auth"]) {
  const store = new MemoryTokenStore();
  return (server: string) => {
    const options = (typeof given === "function" ? given(server) : given) ?? {};
    return { ...options, store: options.store ?? store };
  };
}
