import type { McpServer } from "../server/server.js";
import { createCalculatorServer } from "./calculator/server.js";
import { createEverythingServer } from "./everything/index.js";
import { createFromArgs as createFilesystemFromArgs, FILESYSTEM_USAGE } from "./filesystem/index.js";

/** A server `mcpkit serve <name> [args…]` can run; `create` gets the arguments after the name. */
export interface BundledServer {
  description: string;
  usage?: string;
  create: (args: string[]) => McpServer | Promise<McpServer>;
}

/** The servers `mcpkit serve <name>` can run. */
export const BUNDLED_SERVERS: Record<string, BundledServer> = {
  calculator: {
    description: "safe arithmetic evaluator (one `calculator` tool)",
    create: createCalculatorServer,
  },
  everything: {
    description: "conformance fixture: every tool, resource, prompt and client feature (test_*)",
    create: createEverythingServer,
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
export { createEverythingServer } from "./everything/index.js";
export { createFilesystemServer, type FilesystemServerOptions } from "./filesystem/index.js";
