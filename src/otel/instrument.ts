import type { McpClient } from "../client/client.js";
import { McpServer } from "../server/server.js";
import { otelClient } from "./client.js";
import type { OtelOptions } from "./options.js";
import { otelServer } from "./server.js";

/**
 * Traces a server (`otelServer`) or a client (`otelClient`): the tracing middleware goes first,
 * outermost, when this is called before other `use`s.
 */
export function instrument<T extends McpServer | McpClient>(role: T, options?: OtelOptions): T {
  if (role instanceof McpServer) role.use(otelServer(options));
  else (role as McpClient).use(otelClient(options));
  return role;
}
