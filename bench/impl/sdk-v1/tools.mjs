// SDK v1's benchmark server: the shared workload registered the way the SDK's README shows
// (`registerTool` with zod raw shapes, handlers returning `CallToolResult`s). v1's McpServer takes
// only zod, so it has no plain-JSON-Schema variant.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import {
  BIG_DESCRIPTION,
  bigText,
  ECHO_DESCRIPTION,
  fillerDescription,
  fillerName,
  STATS_DESCRIPTION,
} from "../../lib/workload.mjs";

const text = (value) => ({ content: [{ type: "text", text: value }] });

export async function createServer(config, stats) {
  if (config.schema === "json") throw new Error("SDK v1's McpServer takes only zod schemas");
  // Built before registering, so that the server's memory and time marks tell them apart.
  const shapes = Array.from({ length: config.tools }, () => ({ message: z.string() }));
  stats.schemasBuilt();
  const server = new McpServer({ name: "bench-sdk-v1", version: "1.0.0" });
  server.registerTool(
    "echo",
    { description: ECHO_DESCRIPTION, inputSchema: { message: z.string() } },
    ({ message }) => text(message),
  );
  server.registerTool("big", { description: BIG_DESCRIPTION }, () => text(bigText()));
  server.registerTool(
    "stats",
    { description: STATS_DESCRIPTION, inputSchema: { gc: z.boolean().optional() } },
    ({ gc }) => text(stats.report(gc === true)),
  );
  for (let i = 0; i < config.tools; i++) {
    server.registerTool(
      fillerName(i),
      { description: fillerDescription(i), inputSchema: shapes[i] },
      ({ message }) => text(message),
    );
  }
  stats.registered();
  return server;
}
