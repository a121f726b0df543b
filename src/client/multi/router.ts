import type { Tool as McpToolDescription } from "../../protocol/types/tools.js";
import { type McpTool, type McpToolOptions, mcpTool } from "../tools/tool-adapter.js";
import type { ServerConnection } from "./connection.js";
import { assignToolNames, type CollisionPolicy } from "./naming.js";
import type { PerToolOptions } from "./options.js";

/**
 * Which tools: a list of names (`"tool"` matches that tool on any server, `"server/tool"` one
 * server's) and regular expressions (tested against both forms), or a function.
 */
export type ToolFilter =
  | readonly (string | RegExp)[]
  | ((tool: McpToolDescription, server: string) => boolean);

/** A subset of the tools, for one agent. */
export interface ToolSelection {
  /** Only these servers' tools; default every connected server. */
  servers?: readonly string[];
  /** Only the tools this matches. */
  include?: ToolFilter;
  /** None of the tools this matches. */
  exclude?: ToolFilter;
}

/** A tool of one server of a `MultiServerClient`: calls are routed to that server. */
export interface MultiServerTool extends McpTool {
  /** The server that offers it. */
  readonly server: string;
}

function matches(filter: ToolFilter, tool: McpToolDescription, server: string): boolean {
  if (typeof filter === "function") return filter(tool, server);
  const qualified = `${server}/${tool.name}`;
  return filter.some((entry) =>
    typeof entry === "string"
      ? entry === tool.name || entry === qualified
      : entry.test(tool.name) || entry.test(qualified),
  );
}

/** What the router needs to know to build tools. */
interface RouterSettings {
  collisions: CollisionPolicy;
  /** Defaults for every tool (the `MultiServerClient` options). */
  defaults: Omit<McpToolOptions, "name">;
  perTool: PerToolOptions;
}

/**
 * The tools of the selected servers as `AgentTool`s with names unique among them (the collision policy
 * decides how), each routed to its own server's connection. Server order, then each server's order.
 */
export function routeTools(
  connections: readonly ServerConnection[],
  selection: ToolSelection,
  settings: RouterSettings,
): MultiServerTool[] {
  const wanted = selection.servers ? new Set(selection.servers) : undefined;
  const chosen: { connection: ServerConnection; tool: McpToolDescription }[] = [];
  for (const connection of connections) {
    if (wanted && !wanted.has(connection.name)) continue;
    for (const tool of connection.tools) {
      if (selection.include && !matches(selection.include, tool, connection.name)) continue;
      if (selection.exclude && matches(selection.exclude, tool, connection.name)) continue;
      chosen.push({ connection, tool });
    }
  }
  const names = assignToolNames(
    chosen.map(({ connection, tool }) => ({ server: connection.name, tool: tool.name })),
    settings.collisions,
  );
  return chosen.map(({ connection, tool }, i) => {
    const options: McpToolOptions = {
      ...settings.defaults,
      ...(connection.config.timeout === undefined ? {} : { timeout: connection.config.timeout }),
      ...settings.perTool[tool.name],
      ...settings.perTool[`${connection.name}/${tool.name}`],
      name: names[i]!,
    };
    return Object.assign(mcpTool(connection, tool, options), { server: connection.name });
  });
}
