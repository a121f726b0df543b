/** The config a proxy serves: the `mcpServers` format, each entry with optional `allowTools` and `denyTools`. */

import { checkIssuerOption } from "../client/auth/issuer.js";
import type { OAuthOptions } from "../client/auth/options.js";
import {
  loadConfigFile,
  type McpServersConfig,
  parseConfig,
  readConfigFile,
  type ServerConfig,
} from "../client/multi/config.js";
import { didYouMean } from "../client/multi/config-check.js";
import { type EntrySchema, SERVER_ENTRY } from "../client/multi/config-schema.js";
import { checkToolLists, type ToolLists, ToolPolicy } from "./filter.js";
import { type ToolOverride, ToolOverrides } from "./overrides.js";
import { GatewayPolicy, type PolicyRule } from "./policy.js";

/**
 * A server entry of a proxy config: an `mcpServers` entry, with optional `allowTools` and
 * `denyTools`, and `trusted`: whether the server's tool annotations are believed.
 */
export type ProxyServerConfig = ServerConfig & ToolLists & { trusted?: boolean };

/**
 * The config a proxy serves: the `mcpServers` format of Claude Desktop and others, and, for a
 * gateway, its `policy` rules and `tools` overrides (see `GatewayOptions`); `audit` is read by
 * `mcpkit proxy` (the log's path, relative to the file).
 */
export interface ProxyConfig {
  mcpServers: Record<string, ProxyServerConfig>;
  policy?: readonly PolicyRule[];
  tools?: Record<string, ToolOverride>;
  audit?: string;
}

/** A config checked for a proxy: the entries to connect, each one's tool lists, the trusted ones. */
export interface CheckedProxyConfig {
  mcpServers: McpServersConfig["mcpServers"];
  lists: Record<string, ToolLists>;
  trusted: Set<string>;
}

const TOOL_NAMES = { type: "strings", nonEmpty: true, expected: "an array of tool names" } as const;

/** The keys of a proxy config's server entry: those of `MultiServerClient`, and the tool lists. */
export const PROXY_ENTRY: EntrySchema = {
  ...SERVER_ENTRY,
  common: {
    ...SERVER_ENTRY.common,
    allowTools: TOOL_NAMES,
    denyTools: TOOL_NAMES,
    trusted: { type: "boolean" },
  },
  elsewhere: {},
};

/** The keys of a gateway config beside `mcpServers`. */
const GATEWAY_KEYS = ["mcpServers", "policy", "tools", "audit"];

/**
 * Checks what a gateway config holds beside its servers: its keys (a did-you-mean for an unknown
 * one), its `policy` rules, its `tools` overrides and its `audit` path. Throws an `Error` naming
 * what is wrong.
 */
function checkGatewaySettings(config: ProxyConfig): void {
  for (const key of Object.keys(config)) {
    if (GATEWAY_KEYS.includes(key)) continue;
    const meant = didYouMean(key, GATEWAY_KEYS);
    throw new Error(`unknown key "${key}" in the config${meant ? ` (did you mean "${meant}"?)` : ""}`);
  }
  if (config.policy !== undefined && !Array.isArray(config.policy))
    throw new Error(`"policy" must be an array of rules`);
  new GatewayPolicy(config.policy ?? []);
  new ToolOverrides(config.tools ?? {});
  if (config.audit !== undefined && (typeof config.audit !== "string" || config.audit === ""))
    throw new Error(`"audit" must be the path of the audit log`);
}

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
  checkGatewaySettings(config);
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
  const trusted = new Set<string>();
  for (const [name, entry] of Object.entries(mcpServers as Record<string, ProxyServerConfig>)) {
    lists[name] = checkToolLists(name, entry);
    if ("url" in entry && entry.auth) checkUpstreamAuth(name, entry.auth);
    const { allowTools: _allow, denyTools: _deny, trusted: trust, ...server } = entry;
    if (trust === true) trusted.add(name);
    if (select.servers) {
      if (select.servers.includes(name)) chosen[name] = { ...server, disabled: false };
    } else if (!server.disabled) chosen[name] = server;
  }
  if (Object.keys(chosen).length === 0) throw new Error("the config has no enabled server to serve");
  return { mcpServers: chosen, lists, trusted };
}

/**
 * An upstream's OAuth settings, checked before anything connects: a client secret needs the
 * `issuer` it belongs to (it is presented to no other authorization server).
 */
function checkUpstreamAuth(name: string, auth: OAuthOptions): void {
  try {
    checkIssuerOption(auth);
  } catch (error) {
    throw new Error(`server "${name}": ${error instanceof Error ? error.message : String(error)}`);
  }
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
