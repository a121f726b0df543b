// SDK v2's benchmark server: the shared workload registered the way the SDK's docs show
// (`registerTool` with zod object schemas, handlers returning `CallToolResult`s), or with plain JSON
// Schema objects through `fromJsonSchema` (`schema: "json"`).
import { fromJsonSchema, McpServer } from "@modelcontextprotocol/server";
import { schemas } from "../../lib/schemas.mjs";
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
  const schema = await schemas(config);
  const wrap = config.schema === "json" ? fromJsonSchema : (zodSchema) => zodSchema;
  // Built before registering, so that the server's memory and time marks tell them apart.
  const inputs = Array.from({ length: config.tools }, () => schema.message());
  stats.schemasBuilt();
  const server = new McpServer({ name: "bench-sdk-v2", version: "2.0.0" });
  server.registerTool(
    "echo",
    { description: ECHO_DESCRIPTION, inputSchema: wrap(schema.message()) },
    ({ message }) => text(message),
  );
  server.registerTool("big", { description: BIG_DESCRIPTION }, () => text(bigText()));
  server.registerTool(
    "stats",
    { description: STATS_DESCRIPTION, inputSchema: wrap(schema.stats()) },
    ({ gc }) => text(stats.report(gc === true)),
  );
  for (let i = 0; i < config.tools; i++) {
    server.registerTool(
      fillerName(i),
      { description: fillerDescription(i), inputSchema: wrap(inputs[i]) },
      ({ message }) => text(message),
    );
  }
  stats.registered();
  return server;
}
