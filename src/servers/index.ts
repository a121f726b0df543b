import type { McpServer } from "../server/server.js";
import { createCalculatorServer } from "./calculator/server.js";

/** The servers `mcpkit serve <name>` can run. */
export const BUNDLED_SERVERS: Record<string, { description: string; create: () => McpServer }> = {
  calculator: {
    description: "safe arithmetic evaluator (one `calculator` tool)",
    create: createCalculatorServer,
  },
};

export { ExpressionError, evaluate } from "./calculator/evaluate.js";
export { createCalculatorServer } from "./calculator/server.js";
