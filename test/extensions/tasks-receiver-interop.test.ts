/**
 * Client-side tasks against the official receiver: `bindTaskReceiver` of
 * `@modelcontextprotocol/ext-tasks` on the official SDK v2 client, in a 2025-11-25 session over
 * Streamable HTTP on 127.0.0.1, runs the sampling and elicitation our server's handlers ask for as
 * tasks (`ctx.sample` / `ctx.elicit` with `{ task }`), and our polling reaches their results.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { bindTaskReceiver } from "@modelcontextprotocol/ext-tasks/receiver";
import { describe, expect, it } from "vitest";
import { McpServer } from "../../src/server/index.js";

describe("@modelcontextprotocol/ext-tasks receiver against our server asking as a task", () => {
  it("gets a sampling and an elicitation the receiver ran as tasks", async () => {
    const asked: string[] = [];
    const server = new McpServer({ name: "asks", version: "1" }).tool("plan", {}, async (_args, ctx) => {
      const sampled = await ctx.sample(
        { messages: [{ role: "user", content: { type: "text", text: "plan" } }], maxTokens: 10 },
        { task: { ttl: 60_000 } },
      );
      const elicited = await ctx.elicit(
        { message: "Go?", requestedSchema: { type: "object", properties: { go: { type: "boolean" } } } },
        { task: true },
      );
      return `${(sampled.content as { text: string }).text}; ${elicited.action} ${JSON.stringify(elicited.content)}`;
    });
    const http = await server.serveHttp();
    const client = new Client(
      { name: "ext-tasks-receiver", version: "0.2.2" },
      { versionNegotiation: { mode: "legacy" }, capabilities: { sampling: {}, elicitation: { form: {} } } },
    );
    const receiver = bindTaskReceiver(client, {
      methods: { "sampling/createMessage": true, "elicitation/create": true },
      pollIntervalMs: 20,
      sampling: async (request, { taskId }) => {
        asked.push(`${request.method} ${typeof taskId}`);
        return { role: "assistant", content: { type: "text", text: "a plan" }, model: "scripted" };
      },
      elicitation: async (request) => {
        asked.push(`${request.method}`);
        return { action: "accept", content: { go: true } };
      },
    });
    // The SDK types capabilities as JSON objects with index signatures; the binding's are plain interfaces.
    client.registerCapabilities({ tasks: receiver.capabilities as unknown as Record<string, never> });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
      const result = (await client.callTool({ name: "plan", arguments: {} })) as {
        content: { type: string; text: string }[];
      };
      expect(result.content).toEqual([{ type: "text", text: 'a plan; accept {"go":true}' }]);
      expect(asked).toEqual(["sampling/createMessage string", "elicitation/create"]);
    } finally {
      receiver.close();
      await client.close();
      await http.close();
      await server.close();
    }
  });
});
