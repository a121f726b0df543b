// The seed's calculator server: one tool, a zod schema, a safe evaluator (no eval), served over stdio.

import { evaluate } from "mcpkit/bundled";
import { McpServer } from "mcpkit/server";
import { z } from "zod";

const server = new McpServer({ name: "my-calculator", version: "1.0.0" }).tool(
  "calculator",
  {
    description: "Evaluate an arithmetic expression such as '2 + 3 * 4'",
    input: z.object({ expression: z.string().describe("The expression, e.g. '2 + 3 * 4'") }),
  },
  ({ expression }) => `${expression} = ${evaluate(expression)}`,
);

await server.serveStdio();
