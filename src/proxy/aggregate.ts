/**
 * An aggregate: the servers of an `mcpServers` config served as one, each tool named
 * `server__tool` (MultiServerClient's naming), each prompt `server__prompt`; resources keep their URIs.
 */
import { MultiServerClient } from "../client/multi/multi-client.js";
import { assignToolNames } from "../client/multi/naming.js";
import { MultiServerConnectError } from "../client/multi/options.js";
import type { ServerInfo } from "../server/server.js";
import { VERSION as version } from "../version.js";
import { checkProxyConfig, type ProxyConfig, readProxyConfig } from "./config.js";
import { ToolPolicy } from "./filter.js";
import type { Upstreams } from "./mirror-options.js";
import { type GatewaySettings, multiOptions, type ProxyCommonOptions } from "./options.js";
import type { ForwardedCalls } from "./questions.js";

/** Options of an aggregate. */
export interface AggregateOptions extends ProxyCommonOptions {
  /** The config, or the path of a config file (`${VAR}`s expanded per server, relative `cwd`s resolved). */
  config: ProxyConfig | string;
  /** Only these servers of the config (named ones run even if marked `disabled`); default all enabled ones. */
  servers?: readonly string[];
  /**
   * Where `${VAR}` values come from: default `process.env` for a config file; a config given as an
   * object is expanded only if `env` is given. A server whose variable is missing is left out (in `failures`).
   */
  env?: Record<string, string | undefined>;
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
  calls: ForwardedCalls,
): Promise<{ upstreams: Upstreams; info: ServerInfo; gateway: GatewaySettings }> {
  const file = typeof options.config === "string" ? options.config : undefined;
  const config = file === undefined ? (options.config as ProxyConfig) : await readProxyConfig(file);
  const { mcpServers, lists, trusted } = checkProxyConfig(config, options, file);
  const gateway = { policy: config.policy ?? [], tools: config.tools ?? {} };
  const env = options.env ?? (file === undefined ? undefined : process.env);
  const multi = await MultiServerClient.connect(
    { mcpServers },
    {
      ...multiOptions(options, (server) => server, calls),
      collisions: "prefix-always",
      ...(env ? { env } : {}),
      ...(file === undefined ? {} : { configFile: file }),
    },
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
    trusted: (server) => trusted.has(server),
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
  return { upstreams, info, gateway };
}
