// Both eras on one server: a tool handler that asks the user (elicitation) is written once. A
// 2025-11-25 client gets it as a request in its session; a 2026-07-28 client gets an
// `input_required` result and retries with the answer, the server keeping nothing in memory.
// Usage: node build/examples/both-eras.js
import { McpClient } from "mcpkit/client";
import { isNotification, isRequest, isResultResponse, type JSONRPCMessage } from "mcpkit/jsonrpc";
import { McpServer } from "mcpkit/server";
import { z } from "zod";

const server = new McpServer({ name: "greeter", version: "1.0.0" }).tool(
  "greet",
  { description: "Greets the user by name, asking for it", input: z.object({}) },
  async (_args, ctx) => {
    const answer = await ctx.elicit(
      {
        message: "What is your name?",
        requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
      },
      { key: "name" }, // the question's key in a 2026-07-28 input_required result
    );
    return answer.action === "accept" ? `Hello, ${answer.content?.name}!` : "Hello, stranger!";
  },
);
const http = await server.serveHttp();

/** One line per message: a request's method, or what kind of answer a result is. */
function describe(message: JSONRPCMessage): string {
  if (isRequest(message) || isNotification(message)) {
    const params = message.params as { name?: string; inputResponses?: object } | undefined;
    const detail = params?.inputResponses ? " (with inputResponses and requestState)" : "";
    return `${message.method}${params?.name ? ` ${params.name}` : ""}${detail}`;
  }
  if (!isResultResponse(message)) return `error: ${message.error.message}`;
  const result = message.result as { resultType?: string; inputRequests?: object };
  if (result.resultType !== "input_required") return "result";
  return `result: input_required, asking ${Object.keys(result.inputRequests ?? {}).join(", ")}`;
}

for (const protocolVersion of ["2025-11-25", "2026-07-28"] as const) {
  let tracing = false;
  const client = await McpClient.connect({
    url: http.url,
    protocolVersion,
    elicitation: async ({ message }) => {
      console.log(`  the user is asked: ${message}`);
      return { action: "accept", content: { name: "Ada" } };
    },
    trace: (direction, message) => {
      if (tracing) console.log(`  ${direction === "send" ? "→" : "←"} ${describe(message)}`);
    },
  });
  console.log(`Protocol ${client.protocolVersion}:`);
  tracing = true;
  const result = await client.callTool("greet");
  tracing = false;
  console.log(`  greet → ${result.text()}`);
  await client.close();
}

await http.close();
await server.close();
