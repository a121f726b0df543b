import { registerSkillResources, skills } from "../../extensions/skills/index.js";
import { type TasksOptions, tasks } from "../../extensions/tasks/index.js";
import { McpServer } from "../../server/server.js";
import { registerClientTools } from "./client-tools.js";
import { PNG_DATA_URI } from "./media.js";
import { registerModernTools } from "./modern-tools.js";
import { registerPrompts } from "./prompts.js";
import { registerResources, WatchedResource } from "./resources.js";
import { everythingSkills } from "./skills.js";
import { registerTaskTools } from "./task-tools.js";
import { registerTools } from "./tools.js";

/** Options of the everything server. */
export interface EverythingServerOptions {
  /** Where its tasks are kept and how replicas reach each other's (`store`, `bus`). */
  tasks?: Pick<TasksOptions, "store" | "bus">;
}

/**
 * The "everything" server: the conformance fixture for both eras. It offers the
 * tools, resources, templates and prompts the MCP conformance referee calls (`test_simple_text`,
 * `test://static-text`, `test_simple_prompt`, …), plus completers, a resource link, a tool that
 * updates a subscribable resource and one that lists the client's roots, the tasks extension,
 * and the skills extension with one skill (`skill://pdf-processing/…`). Each server has its own
 * state; every session of one server shares it.
 */
export function createEverythingServer(options: EverythingServerOptions = {}): McpServer {
  const catalog = everythingSkills();
  const server = new McpServer(
    {
      name: "mcpkit-everything",
      version: "1.0.0",
      title: "mcpkit everything server",
      icons: [{ src: PNG_DATA_URI, mimeType: "image/png", sizes: ["1x1"] }],
      instructions:
        "A test fixture exercising every MCP feature: call the test_* tools, read test:// resources, get test_* prompts.",
    },
    { extensions: [tasks({ pollInterval: 200, ...options.tasks }), skills(catalog)] },
  );
  const watched = new WatchedResource();
  registerTools(server, watched);
  registerClientTools(server);
  registerModernTools(server);
  registerTaskTools(server);
  registerResources(server, watched);
  registerPrompts(server);
  registerSkillResources(server, catalog);
  return server;
}
