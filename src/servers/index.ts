import type { McpServer } from "../server/server.js";
import { createCalculatorServer } from "./calculator/server.js";
import { createEverythingServer } from "./everything/index.js";

/** The servers `mcpkit serve <name>` can run. */
export const BUNDLED_SERVERS: Record<string, { description: string; create: () => McpServer }> = {
  calculator: {
    description: "safe arithmetic evaluator (one `calculator` tool)",
    create: createCalculatorServer,
  },
  everything: {
    description: "conformance fixture: every tool, resource, prompt and client feature (test_*)",
    create: createEverythingServer,
  },
};

export { ExpressionError, evaluate } from "./calculator/evaluate.js";
export { createCalculatorServer } from "./calculator/server.js";
export { createEverythingServer } from "./everything/index.js";
