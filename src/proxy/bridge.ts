/**
 * A bridge: one upstream server served as it is (same tool, prompt and resource names) over another
 * transport: a stdio server over Streamable HTTP, or an HTTP server over stdio.
 */
import type { ServerConfig } from "../client/multi/config.js";
import { checkServerEntry } from "../client/multi/config-schema.js";
import { MultiServerClient } from "../client/multi/multi-client.js";
import { MultiServerConnectError } from "../client/multi/options.js";
import type { ServerInfo } from "../server/server.js";
import { PROXY_ENTRY } from "./config.js";
import { checkToolLists, type ToolLists, ToolPolicy } from "./filter.js";
import type { Upstreams } from "./mirror-options.js";
import { type GatewaySettings, multiOptions, type ProxyCommonOptions } from "./options.js";
import type { ForwardedCalls } from "./questions.js";

/** Options of a bridge: the one upstream, as an `mcpServers` entry (`command`/`args` or `url`). */
export interface BridgeOptions extends ProxyCommonOptions {
  upstream: ServerConfig & ToolLists & { trusted?: boolean };
  /** The upstream's name in `server/tool` rules, audit lines and logs; default the name it gives itself. */
  name?: string;
}

/** The key of the one server inside the bridge's `MultiServerClient`. */
const KEY = "upstream";

/**
 * Connects the upstream (rejecting with its error if it cannot) and says how it is shown. Its entry
 * is checked first (a `ConfigError` for an unknown key or a wrong type), before anything starts.
 */
export async function connectBridge(
  options: BridgeOptions,
  calls: ForwardedCalls,
): Promise<{ upstreams: Upstreams; info: ServerInfo; gateway: GatewaySettings }> {
  checkServerEntry(options.name ?? KEY, options.upstream, PROXY_ENTRY);
  const { allowTools, denyTools, trusted, ...upstream } = options.upstream;
  let multi: MultiServerClient;
  // The upstream's name is known once it answered; until then, the one given.
  let known: string | undefined;
  try {
    multi = await MultiServerClient.connect(
      { mcpServers: { [KEY]: { ...upstream, disabled: false } } },
      { ...multiOptions(options, () => known ?? options.name ?? KEY, calls), failOnError: true },
    );
  } catch (error) {
    throw error instanceof MultiServerConnectError && error.failures[0] ? error.failures[0].error : error;
  }
  const client = multi.client(KEY);
  const name = options.name ?? client.serverInfo.name;
  known = name;
  const lists = checkToolLists(name, { allowTools, denyTools });
  const upstreams: Upstreams = {
    multi,
    policy: new ToolPolicy({ [name]: lists }, { allow: options.allow, deny: options.deny }),
    label: () => name,
    trusted: () => trusted === true,
    toolName: (tool) => tool.definition.name,
    promptNames: (_server, prompts) => prompts.map((prompt) => prompt.name),
    logger: (_server, logger) => logger,
  };
  const info: ServerInfo = options.serverInfo ?? { ...client.serverInfo };
  if (!options.serverInfo && client.instructions !== undefined) info.instructions = client.instructions;
  return { upstreams, info, gateway: { policy: [], tools: {} } };
}
