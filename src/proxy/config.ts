/** The config a proxy serves: the `mcpServers` format, each entry with optional `allowTools` and `denyTools`. */
import {
  loadConfigFile,
  type McpServersConfig,
  parseConfig,
  readConfigFile,
  type ServerConfig,
} from "../client/multi/config.js";
import { type EntrySchema, SERVER_ENTRY } from "../client/multi/config-schema.js";
import { checkToolLists, type ToolLists, ToolPolicy } from "./filter.js";

/** A server entry of a proxy config: an `mcpServers` entry, with optional `allowTools` and `denyTools`. */
export type ProxyServerConfig = ServerConfig & ToolLists;

/** The config a proxy serves: the `mcpServers` format of Claude Desktop and others. */
export interface ProxyConfig {
  mcpServers: Record<string, ProxyServerConfig>;
}

/** A config checked for a proxy: the entries to connect and each one's tool lists. */
export interface CheckedProxyConfig {
  mcpServers: McpServersConfig["mcpServers"];
  lists: Record<string, ToolLists>;
}

const TOOL_NAMES = { type: "strings", nonEmpty: true, expected: "an array of tool names" } as const;

/** The keys of a proxy config's server entry: those of `MultiServerClient`, and the tool lists. */
export const PROXY_ENTRY: EntrySchema = {
  ...SERVER_ENTRY,
  common: { ...SERVER_ENTRY.common, allowTools: TOOL_NAMES, denyTools: TOOL_NAMES },
  elsewhere: {},
};

/**
 * Checks a proxy config and picks its servers: each entry's keys and their types (a `ConfigError`
 * with a did-you-mean for an unknown key), the selected names, and the servers `server/tool` rules
 * name. Throws an `Error` saying what is wrong; connects nothing.
 */
export function checkProxyConfig(
  config: ProxyConfig,
  select: { servers?: readonly string[]; allow?: readonly string[]; deny?: readonly string[] } = {},
  file?: string,
): CheckedProxyConfig {
  const { mcpServers } = parseConfig(config, file, PROXY_ENTRY);
  const known = Object.keys(mcpServers);
  const has = (name: string) => Object.hasOwn(mcpServers, name);
  for (const name of select.servers ?? []) {
    if (!has(name))
      throw new Error(`no server "${name}" in the config (it has: ${known.join(", ") || "none"})`);
  }
  const policy = new ToolPolicy({}, { allow: select.allow, deny: select.deny });
  for (const name of policy.serversNamed) {
    if (!has(name)) {
      throw new Error(
        `a tool rule names server "${name}", which is not in the config (it has: ${known.join(", ")})`,
      );
    }
  }
  const chosen: McpServersConfig["mcpServers"] = {};
  const lists: Record<string, ToolLists> = {};
  for (const [name, entry] of Object.entries(mcpServers as Record<string, ProxyServerConfig>)) {
    lists[name] = checkToolLists(name, entry);
    const { allowTools: _allow, denyTools: _deny, ...server } = entry;
    if (select.servers) {
      if (select.servers.includes(name)) chosen[name] = { ...server, disabled: false };
    } else if (!server.disabled) chosen[name] = server;
  }
  if (Object.keys(chosen).length === 0) throw new Error("the config has no enabled server to serve");
  return { mcpServers: chosen, lists };
}

/** Reads a proxy config file and checks its keys, leaving its `${VAR}`s as written. */
export function readProxyConfig(path: string): Promise<ProxyConfig> {
  return readConfigFile(path, PROXY_ENTRY) as Promise<ProxyConfig>;
}

/**
 * Reads a proxy config file as `loadConfigFile` does (keys checked, `${VAR}`s of enabled servers
 * expanded, relative `cwd`s resolved), `allowTools` and `denyTools` included.
 */
export async function loadProxyConfig(
  path: string,
  env: Record<string, string | undefined> = process.env,
): Promise<ProxyConfig> {
  return (await loadConfigFile(path, env, PROXY_ENTRY)) as ProxyConfig;
}
