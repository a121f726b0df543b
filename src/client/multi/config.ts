import { readFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";

/** A server started as a child process and spoken to over stdio. */
export interface StdioServerConfig {
  command: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  /** Per-call timeout for this server's tools, in ms. */
  timeout?: number;
  disabled?: boolean;
}

/** A server reached over HTTP: Streamable HTTP, falling back to legacy SSE unless `transport` says. */
export interface HttpServerConfig {
  url: string;
  headers?: Record<string, string>;
  transport?: "streamable-http" | "http" | "sse";
  timeout?: number;
  disabled?: boolean;
}

export type ServerConfig = StdioServerConfig | HttpServerConfig;

/** The `mcpServers` map used by Claude Desktop, Cursor and others. */
export interface McpServersConfig {
  mcpServers: Record<string, ServerConfig>;
}

/** Replaces `${VAR}` (and `${VAR:-default}`) in every string of the config from `env`. */
export function expandVariables<T>(value: T, env: Record<string, string | undefined> = process.env): T {
  if (typeof value === "string") {
    return value.replace(
      /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g,
      (_whole, name: string, fallback?: string) => {
        const found = env[name];
        if (found !== undefined && found !== "") return found;
        if (fallback !== undefined) return fallback;
        throw new Error(`The config refers to \${${name}}, which is not set`);
      },
    ) as T;
  }
  if (Array.isArray(value)) return value.map((item) => expandVariables(item, env)) as T;
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, expandVariables(item, env)]),
    ) as T;
  }
  return value;
}

/** Checks the shape of a config and names what is wrong. */
export function parseConfig(value: unknown, source = "the config"): McpServersConfig {
  const servers = (value as { mcpServers?: unknown } | null)?.mcpServers;
  if (typeof servers !== "object" || servers === null || Array.isArray(servers)) {
    throw new Error(`${source} needs an "mcpServers" object`);
  }
  for (const [name, server] of Object.entries(servers)) {
    const entry = server as Partial<StdioServerConfig & HttpServerConfig> | null;
    const hasCommand = typeof entry?.command === "string";
    const hasUrl = typeof entry?.url === "string";
    if (hasCommand === hasUrl) {
      throw new Error(`${source}: server "${name}" needs either a "command" or a "url"`);
    }
    if (
      entry?.args !== undefined &&
      !(Array.isArray(entry.args) && entry.args.every((a) => typeof a === "string"))
    ) {
      throw new Error(`${source}: server "${name}": "args" must be an array of strings`);
    }
  }
  return value as McpServersConfig;
}

/** Reads a config file, expands `${VAR}`, and resolves relative `cwd`s against the file's folder. */
export async function loadConfigFile(
  path: string,
  env: Record<string, string | undefined> = process.env,
): Promise<McpServersConfig> {
  const text = await readFile(path, "utf8");
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`${path} is not valid JSON: ${(error as Error).message}`);
  }
  const config = expandVariables(parseConfig(json, path), env);
  for (const server of Object.values(config.mcpServers)) {
    if ("command" in server && server.cwd) server.cwd = resolve(dirname(path), server.cwd);
  }
  return config;
}
