// mcpkit's benchmark server: the shared workload registered the way the README shows (zod schemas,
// handlers returning strings), or with plain JSON Schema objects (`schema: "json"`). With `tasks`,
// the tasks extension and an `echo_task` tool that always runs as a task.
import { McpServer } from "mcpkit/server";
import { benchMiddleware } from "../../lib/middleware.mjs";
import { schemas } from "../../lib/schemas.mjs";
import {
  BIG_DESCRIPTION,
  bigText,
  ECHO_DESCRIPTION,
  fillerDescription,
  fillerName,
  STATS_DESCRIPTION,
} from "../../lib/workload.mjs";

export async function createServer(config, stats) {
  const schema = await schemas(config);
  // Built before registering, so that the server's memory and time marks tell them apart.
  const inputs = Array.from({ length: config.tools }, () => schema.message());
  stats.schemasBuilt();
  const extensions = config.tasks ? [(await import("mcpkit/extensions/tasks")).tasks()] : [];
  const server = new McpServer({ name: "bench-mcpkit", version: "1.0.0" }, { extensions })
    .tool("echo", { description: ECHO_DESCRIPTION, input: schema.message() }, ({ message }) => message)
    .tool("big", { description: BIG_DESCRIPTION }, () => bigText())
    .tool("stats", { description: STATS_DESCRIPTION, input: schema.stats() }, ({ gc }) =>
      stats.report(gc === true),
    );
  if (config.tasks) {
    server.tool(
      "echo_task",
      { description: ECHO_DESCRIPTION, input: schema.message(), task: "required" },
      ({ message }) => message,
    );
  }
  for (let i = 0; i < config.tools; i++) {
    server.tool(
      fillerName(i),
      { description: fillerDescription(i), input: inputs[i] },
      ({ message }) => message,
    );
  }
  for (const middleware of await benchMiddleware("server")) server.use(middleware);
  stats.registered();
  return server;
}
