/**
 * 2026-07-28 task status on `subscriptions/listen` (SEP-2663), over Streamable HTTP on 127.0.0.1:
 * a client's task handle listens to its task's id and learns of each change from
 * `notifications/tasks`, without polling; a client that does not declare the extension is refused.
 */
import { describe, expect, it } from "vitest";
import { McpClient } from "../../src/client/index.js";
import { tasks } from "../../src/extensions/tasks/index.js";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import type { JSONRPCMessage } from "../../src/jsonrpc/messages.js";
import { McpServer } from "../../src/server/index.js";

const VERSION = "2026-07-28";

/** A task tool that goes on only when the test lets it, step by step. */
function steppedServer() {
  const steps: (() => void)[] = [];
  const step = () => new Promise<void>((resolve) => steps.push(resolve));
  // Polls are 10 minutes apart: what the handle learns before then, it learned from pushes.
  const server = new McpServer(
    { name: "listen", version: "1" },
    { extensions: [tasks({ pollInterval: 600_000 })] },
  ).tool("stepped", { task: "optional" }, async (_args, ctx) => {
    await step();
    await ctx.task!.statusMessage("half way");
    await step();
    return "stepped done";
  });
  const release = async () => {
    await expect.poll(() => steps.length).toBe(1);
    steps.shift()!();
  };
  return { server, release };
}

describe("notifications/tasks on subscriptions/listen (2026-07-28)", () => {
  it("tells a task handle of its task's changes as they happen", async () => {
    const { server, release } = steppedServer();
    const http = await server.serveHttp();
    const messages: JSONRPCMessage[] = [];
    const client = await McpClient.connect({
      url: http.url,
      protocolVersion: VERSION,
      trace: (_direction, message) => messages.push(message),
    });
    const methods = (name: string) => messages.filter((m) => "method" in m && m.method === name);
    try {
      const task = await client.callTool("stepped", {}, { task: true });
      const states: string[] = [];
      const seen = (async () => {
        for await (const info of task) states.push(`${info.status} ${info.statusMessage ?? ""}`.trim());
      })();
      await expect.poll(() => methods("notifications/subscriptions/acknowledged").length).toBe(1);
      const [ack] = methods("notifications/subscriptions/acknowledged") as unknown as {
        params: { notifications: object };
      }[];
      expect(ack!.params.notifications).toEqual({ taskIds: [task.id] });
      await release();
      await expect.poll(() => states.at(-1)).toBe("working half way");
      await release();
      await seen;
      expect(states).toEqual(["working", "working half way", "completed half way"]);
      expect((await task.result()).text()).toBe("stepped done");
      expect(methods("notifications/tasks").length).toBeGreaterThanOrEqual(2);
      expect(methods("tasks/get")).toEqual([]);
    } finally {
      await client.close();
      await http.close();
      await server.close();
    }
  });

  it("refuses to listen to tasks for a client without the extension (-32021)", async () => {
    const { server } = steppedServer();
    const http = await server.serveHttp();
    try {
      const response = await fetch(http.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": VERSION,
          "mcp-method": "subscriptions/listen",
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "subscriptions/listen",
          params: {
            notifications: { taskIds: ["any"] },
            _meta: {
              "io.modelcontextprotocol/protocolVersion": VERSION,
              "io.modelcontextprotocol/clientCapabilities": {},
            },
          },
        }),
      });
      const text = await response.text();
      const body = JSON.parse(text.includes("data:") ? text.slice(text.indexOf("data:") + 5) : text) as {
        error: { code: number; data: unknown };
      };
      expect(body.error.code).toBe(ErrorCode.MissingRequiredClientCapability);
      expect(body.error.data).toEqual({
        requiredCapabilities: { extensions: { "io.modelcontextprotocol/tasks": {} } },
      });
    } finally {
      await http.close();
      await server.close();
    }
  });
});
