/**
 * An aggregate: the servers of an `mcpServers` config served as one, each tool named
 * `server__tool` (MultiServerClient's naming), each prompt `server__prompt`; resources keep their URIs.
 */
import {
  loadConfigFile,
  type McpServersConfig,
  parseConfig,
  type ServerConfig,
} from "../client/multi/config.js";
import { MultiServerClient, MultiServerConnectError } from "../client/multi/multi-client.js";
import { assignToolNames } from "../client/multi/naming.js";
import type { ServerInfo } from "../server/server.js";
import { VERSION as version } from "../version.js";
import { checkToolLists, type ToolLists, ToolPolicy } from "./filter.js";
import type { Upstreams } from "./mirror.js";
import { multiOptions, type ProxyCommonOptions } from "./options.js";

/** A server entry of a proxy config: an `mcpServers` entry, with optional `allowTools` and `denyTools`. */
export type ProxyServerConfig = ServerConfig & ToolLists;

/** The config a proxy serves: the `mcpServers` format of Claude Desktop and others. */
export interface ProxyConfig {
  mcpServers: Record<string, ProxyServerConfig>;
}

/** Options of an aggregate. */
export interface AggregateOptions extends ProxyCommonOptions {
  /** The config, or the path of a config file (`${VAR}` expanded, relative `cwd`s resolved). */
  config: ProxyConfig | string;
  /** Only these servers of the config (named ones run even if marked `disabled`); default all enabled ones. */
  servers?: readonly string[];
}

/** A config checked for a proxy: the entries to connect and each one's tool lists. */
export interface CheckedProxyConfig {
  mcpServers: McpServersConfig["mcpServers"];
  lists: Record<string, ToolLists>;
}

/**
 * Checks a proxy config and picks its servers: each entry's shape and lists, the selected names, and
 * the servers `server/tool` rules name. Throws an `Error` saying what is wrong; connects nothing.
 */
export function checkProxyConfig(
  config: ProxyConfig,
  select: { servers?: readonly string[]; allow?: readonly string[]; deny?: readonly string[] } = {},
): CheckedProxyConfig {
  const { mcpServers } = parseConfig(config);
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

/** Reads a proxy config file: `loadConfigFile` (variables, `cwd`s), then `checkProxyConfig`'s checks of shape. */
export async function loadProxyConfig(
  path: string,
  env: Record<string, string | undefined> = process.env,
): Promise<ProxyConfig> {
  const config = (await loadConfigFile(path, env)) as ProxyConfig;
  for (const [name, entry] of Object.entries(config.mcpServers)) checkToolLists(name, entry);
  return config;
}

/** What the aggregate tells clients in `instructions`: the naming, then each server's own. */
function instructionsOf(multi: MultiServerClient): string {
  const lines = [
    `This server combines the MCP servers ${multi.servers.join(", ")}: each tool is named <server>__<tool> and each prompt <server>__<prompt>.`,
  ];
  for (const server of multi.servers) {
    try {
      const instructions = multi.client(server).instructions;
      if (instructions) lines.push(`${server}: ${instructions}`);
    } catch {
      // not connected: nothing to say
    }
  }
  return lines.join("\n");
}

/**
 * Connects the servers of the config. Servers that fail are reported in `multi.failures` and left out
 * (their tools appear if they reconnect); if every server fails it rejects with a `MultiServerConnectError`.
 */
export async function connectAggregate(
  options: AggregateOptions,
): Promise<{ upstreams: Upstreams; info: ServerInfo }> {
  const config = typeof options.config === "string" ? await loadProxyConfig(options.config) : options.config;
  const { mcpServers, lists } = checkProxyConfig(config, options);
  const multi = await MultiServerClient.connect(
    { mcpServers },
    { ...multiOptions(options), collisions: "prefix-always" },
  );
  if (multi.failures.length === multi.servers.length) {
    const failures = [...multi.failures];
    await multi.close();
    throw new MultiServerConnectError(failures);
  }
  const upstreams: Upstreams = {
    multi,
    policy: new ToolPolicy(lists, { allow: options.allow, deny: options.deny }),
    label: (server) => server,
    toolName: (tool) => tool.name,
    promptNames: (server, prompts) =>
      assignToolNames(
        prompts.map((prompt) => ({ server, tool: prompt.name })),
        "prefix-always",
      ),
    logger: (server, logger) => (logger ? `${server}/${logger}` : server),
  };
  const info: ServerInfo = options.serverInfo ?? {
    name: "mcpkit-proxy",
    version,
    instructions: instructionsOf(multi),
  };
  return { upstreams, info };
}
