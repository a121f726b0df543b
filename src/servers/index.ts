import type { TaskStore } from "../extensions/tasks/index.js";
import type { McpServer } from "../server/server.js";
import type { MessageBus } from "../server/sessions/stores.js";
import { createCalculatorServer } from "./calculator/server.js";
import { createEverythingServer } from "./everything/index.js";
import { createFromArgs as createFilesystemFromArgs, FILESYSTEM_USAGE } from "./filesystem/index.js";

/** What a bundled server is made with beside its arguments: where a replica keeps its tasks. */
export interface BundledServerContext {
  /** The task store and message bus the replicas share (`mcpkit serve --redis`). */
  tasks?: { store: TaskStore; bus: MessageBus };
}

/** A server `mcpkit serve <name> [args…]` can run; `create` gets the arguments after the name. */
export interface BundledServer {
  description: string;
  usage?: string;
  create: (args: string[], context?: BundledServerContext) => McpServer | Promise<McpServer>;
}

/** The servers `mcpkit serve <name>` can run. */
export const BUNDLED_SERVERS: Record<string, BundledServer> = {
  calculator: {
    description: "safe arithmetic evaluator (one `calculator` tool)",
    create: createCalculatorServer,
  },
  everything: {
    description: "conformance fixture: every tool, resource, prompt and client feature (test_*)",
    create: (_args, context) => createEverythingServer(context),
  },
  filesystem: {
    description:
      "files inside the given directories: read, write, edit, list, search, move (--read-only: no writes)",
    usage: FILESYSTEM_USAGE,
    create: createFilesystemFromArgs,
  },
};

export { ExpressionError, evaluate } from "./calculator/evaluate.js";
export { createCalculatorServer } from "./calculator/server.js";
export { createEverythingServer, type EverythingServerOptions } from "./everything/index.js";
export { createFilesystemServer, type FilesystemServerOptions } from "./filesystem/index.js";
