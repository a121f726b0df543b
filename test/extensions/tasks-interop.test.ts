/**
 * The official tasks requester (`@modelcontextprotocol/ext-tasks`) over the official SDK v2
 * client against our tasks server, in a 2025-11-25 session over Streamable HTTP: a tool run as a
 * task, polled to its result, and a task cancelled.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import {
  createTaskSessionFromClient,
  resultFromTaskOutcome,
  toolDeclarationFromMcpTool,
} from "@modelcontextprotocol/ext-tasks/client";
import { describe, expect, it } from "vitest";
import { taskServer } from "./tasks-fixture.js";

describe("@modelcontextprotocol/ext-tasks against our tasks server (2025-11-25)", () => {
  it("runs a tool as a task to its result, and cancels another", async () => {
    const { server, seen } = taskServer();
    const handle = await server.serveHttp();
    const client = new Client(
      { name: "ext-tasks", version: "0.2.2" },
      { versionNegotiation: { mode: "legacy" } },
    );
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(handle.url)));
      const session = createTaskSessionFromClient(client, { endpointId: "interop" });
      const { tools } = await client.listTools();
      const run = tools.find((tool) => tool.name === "run")!;
      expect(run.execution).toEqual({ taskSupport: "optional" });
      const declaration = toolDeclarationFromMcpTool(run);
      try {
        const execution = await session.callTool(
          "run",
          { ms: 300, label: "official" },
          { declaration, task: { preference: "prefer" } },
        );
        expect(execution.kind).toBe("task");
        const { outcome } = await execution.settle();
        const result = resultFromTaskOutcome(outcome) as { content: { type: string; text: string }[] };
        expect(result.content).toEqual([{ type: "text", text: "official done" }]);
        const long = await session.callTool(
          "run",
          { ms: 60_000, label: "stopped" },
          { declaration, task: { preference: "prefer" } },
        );
        await long.cancel();
        const { outcome: cancelled } = await long.settle();
        expect(cancelled.status).toBe("cancelled");
        await expect.poll(() => seen.aborted).toEqual(["stopped"]);
      } finally {
        await session.close();
      }
    } finally {
      await client.close();
      await handle.close();
      await server.close();
    }
  });
});
