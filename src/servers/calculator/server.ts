import { McpServer } from "../../server/server.js";
import { ExpressionError, evaluate } from "./evaluate.js";

/**
 * The calculator server: one `calculator` tool that evaluates arithmetic safely
 * (a parser, never `eval`), with `+ - * / % ^`, parentheses, functions and constants.
 */
export function createCalculatorServer(): McpServer {
  return new McpServer({
    name: "mcpkit-calculator",
    version: "1.0.0",
    instructions: "Use the calculator tool for any arithmetic instead of computing it yourself.",
  }).tool(
    "calculator",
    {
      title: "Calculator",
      description:
        "Evaluate an arithmetic expression: + - * / % ^, parentheses, sqrt abs floor ceil round sin cos tan log ln exp min max pow, pi and e.",
      input: {
        type: "object",
        properties: {
          expression: {
            type: "string",
            description: "An arithmetic expression, e.g. '2 + 3 * 4'",
            maxLength: 1000,
          },
        },
        required: ["expression"],
        additionalProperties: false,
      },
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    ({ expression }) => {
      try {
        return `${expression} = ${evaluate(expression as string)}`;
      } catch (error) {
        if (error instanceof ExpressionError)
          throw new Error(`Cannot evaluate "${expression}": ${error.message}`);
        throw error;
      }
    },
  );
}
