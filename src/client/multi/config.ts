import { readFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import type { HttpTransportName } from "../../transports/kinds.js";
import { ConfigError, type ConfigLocation, type ConfigWarning, emitConfigWarning } from "./config-error.js";
import { parseConfigJson } from "./config-json.js";
import { checkConfig, type EntrySchema, SERVER_ENTRY } from "./config-schema.js";

/** A server started as a child process and spoken to over stdio. */
export interface StdioServerConfig {
  command: string;
  args?: string[];
  env?: Record<string, string>;
  /** Give the server the whole environment instead of the safelist (see `StdioServerParameters.env`). */
  inheritEnv?: boolean;
  cwd?: string;
  /** Per-call timeout for this server's tools, in ms. */
  timeout?: number;
  disabled?: boolean;
  /** Accepted as other tools write it; a `command` already means stdio. */
  type?: "stdio";
}

/**
 * The OAuth settings of an HTTP server's entry: with `auth` (even `{}`), the client authorizes when
 * the server answers `401`. What cannot be written in JSON (`onAuthorizationUrl`, `store`) comes
 * from `MultiServerOptions.auth`.
 */
export interface ServerAuthConfig {
  clientId?: string;
  /** Needs `issuer`. */
  clientSecret?: string;
  /** The authorization server that issued `clientId` and `clientSecret`: they go to no other (see `OAuthOptions.issuer`). */
  issuer?: string;
  clientMetadataUrl?: string;
  clientName?: string;
  scopes?: string[];
  redirectUri?: string;
}

/** A server reached over HTTP: Streamable HTTP, falling back to legacy SSE unless `transport` says. */
export interface HttpServerConfig {
  url: string;
  headers?: Record<string, string>;
  /** OAuth for a protected server. */
  auth?: ServerAuthConfig;
  transport?: HttpTransportName;
  /** The spelling of `transport` in Claude Code's and Cursor's configs; `transport` wins if both are given. */
  type?: HttpTransportName;
  timeout?: number;
  disabled?: boolean;
}

export type ServerConfig = StdioServerConfig | HttpServerConfig;

/** The `mcpServers` map used by Claude Desktop, Cursor and others. */
export interface McpServersConfig {
  mcpServers: Record<string, ServerConfig>;
}

const REFERENCE = /^([A-Za-z_][A-Za-z0-9_]*)(?::-(.*))?$/s;

function expandString(text: string, env: Record<string, string | undefined>, at: ConfigLocation): string {
  let out = "";
  let from = 0;
  for (let start = text.indexOf("${"); start !== -1; start = text.indexOf("${", from)) {
    const end = text.indexOf("}", start + 2);
    const match = end === -1 ? null : REFERENCE.exec(text.slice(start + 2, end));
    if (!match) {
      const written = text.slice(start, end === -1 ? undefined : end + 1);
      if (written.startsWith("${input:")) {
        throw new ConfigError(
          `${JSON.stringify(written)} is a VS Code input, which mcpkit does not prompt for: set an environment variable and write \${NAME}`,
          at,
        );
      }
      throw new ConfigError(
        `${JSON.stringify(written)} is not a variable: write \${NAME} or \${NAME:-default}`,
        at,
      );
    }
    const [, name, fallback] = match as unknown as [string, string, string | undefined];
    const found = env[name];
    let value: string;
    if (found !== undefined && found !== "") value = found;
    else if (fallback !== undefined) value = fallback;
    else {
      const state = found === undefined ? "is not set" : "is empty";
      throw new ConfigError(`\${${name}} ${state}; set it, or write \${${name}:-default}`, at);
    }
    out += text.slice(from, start) + value;
    from = end + 1;
  }
  return out + text.slice(from);
}

function expandAt<T>(value: T, env: Record<string, string | undefined>, at: ConfigLocation): T {
  const path = at.path ?? [];
  if (typeof value === "string") return (value.includes("${") ? expandString(value, env, at) : value) as T;
  if (Array.isArray(value)) {
    return value.map((item, i) => expandAt(item, env, { ...at, path: [...path, i] })) as T;
  }
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, expandAt(item, env, { ...at, path: [...path, key] })]),
    ) as T;
  }
  return value;
}

/**
 * Replaces `${VAR}` and `${VAR:-default}` in every string of `value` (keys are left as they are)
 * from `env`. A variable that is not set (or is empty) and has no default, or a `${` that does not
 * start a reference, throws a `ConfigError`; `at` says where `value` is, for its message.
 */
export function expandVariables<T>(
  value: T,
  env: Record<string, string | undefined> = process.env,
  at: ConfigLocation = {},
): T {
  return expandAt(value, env, at);
}

/**
 * One server's entry made ready to connect: its `${VAR}`s expanded from `env` (if given) and, for a
 * config read from `file`, a relative `cwd` resolved against the file's folder. Throws a
 * `ConfigError` naming the server and the file if a variable is missing. The entry is not changed.
 */
export function expandServerConfig(
  name: string,
  entry: ServerConfig,
  options: { env?: Record<string, string | undefined>; file?: string } = {},
): ServerConfig {
  const { env, file } = options;
  const expanded = env ? expandAt(entry, env, { file, server: name, path: ["mcpServers", name] }) : entry;
  if (file && "command" in expanded && expanded.cwd) {
    return { ...expanded, cwd: resolve(dirname(file), expanded.cwd) };
  }
  return expanded;
}

/**
 * Checks a config and returns it: an `mcpServers` object (VS Code's `servers` is read as one) whose
 * entries have a `command` (stdio) or a `url` (HTTP) and only known keys, each of the right type.
 * Anything else throws a `ConfigError` naming `source` (the file), the server and the key, with the
 * key probably meant for an unknown one; a config with several mistakes lists them all (`problems`).
 * Keys other hosts write (Cline's `alwaysAllow`, VS Code's `envFile`) are ignored with a warning to
 * `onWarning` (default: a process warning on stderr). `schema` is the set of keys allowed (the
 * proxy's adds `allowTools` and `denyTools`).
 */
export function parseConfig(
  value: unknown,
  source?: string,
  schema: EntrySchema = SERVER_ENTRY,
  onWarning: (warning: ConfigWarning) => void = emitConfigWarning,
): McpServersConfig {
  const { servers, warnings } = checkConfig(value, schema, source);
  for (const warning of warnings) onWarning(warning);
  const config = value as McpServersConfig;
  return config.mcpServers === servers
    ? config
    : { ...config, mcpServers: servers as McpServersConfig["mcpServers"] };
}

/** Reads a config file and checks it (see `parseConfig`), leaving its `${VAR}`s as written. */
export async function readConfigFile(
  path: string,
  schema: EntrySchema = SERVER_ENTRY,
  onWarning?: (warning: ConfigWarning) => void,
): Promise<McpServersConfig> {
  const text = await readFile(path, "utf8");
  return parseConfig(parseConfigJson(text, path), path, schema, onWarning);
}

/**
 * Reads and checks a config file, expands the `${VAR}`s of each server not `disabled`, and resolves
 * their relative `cwd`s against the file's folder (a disabled entry is returned as written). Throws a
 * `ConfigError` naming the file (with the line and column of invalid JSON) and the server.
 */
export async function loadConfigFile(
  path: string,
  env: Record<string, string | undefined> = process.env,
  schema: EntrySchema = SERVER_ENTRY,
  onWarning?: (warning: ConfigWarning) => void,
): Promise<McpServersConfig> {
  const config = await readConfigFile(path, schema, onWarning);
  const mcpServers: Record<string, ServerConfig> = {};
  for (const [name, entry] of Object.entries(config.mcpServers)) {
    mcpServers[name] = entry.disabled ? entry : expandServerConfig(name, entry, { env, file: path });
  }
  return { ...config, mcpServers };
}
