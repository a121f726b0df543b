/**
 * Tasks over Streamable HTTP: a client starts a task and closes; a new client reaches the same
 * task by its id and gets the result. The routing header Mcp-Name carries the task id.
 */
import { describe, expect, it } from "vitest";
import { McpClient } from "../../src/client/index.js";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import { taskServer } from "./tasks-fixture.js";

describe("tasks over HTTP", () => {
  for (const protocolVersion of ["2025-11-25", "2026-07-28"] as const) {
    it(`gives a closed client's task result to a new client by task id (${protocolVersion})`, async () => {
      const { server } = taskServer();
      const handle = await server.serveHttp();
      try {
        const first = await McpClient.connect({ url: handle.url, protocolVersion });
        const task = await first.callTool("run", { ms: 600, label: "handed over" }, { task: true });
        await first.close();
        const second = await McpClient.connect({ url: handle.url, protocolVersion });
        const again = await second.task(task.id);
        expect(["working", "completed"]).toContain(again.info.status);
        expect((await again.result()).text()).toBe("handed over done");
        await second.close();
      } finally {
        await handle.close();
        await server.close();
      }
    });
  }

  it("refuses tasks/get whose Mcp-Name header is not the task id, with -32020", async () => {
    const { server } = taskServer();
    const handle = await server.serveHttp();
    try {
      const response = await fetch(handle.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2026-07-28",
          "mcp-method": "tasks/get",
          "mcp-name": "another",
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tasks/get",
          params: {
            taskId: "one",
            _meta: {
              "io.modelcontextprotocol/protocolVersion": "2026-07-28",
              "io.modelcontextprotocol/clientCapabilities": {
                extensions: { "io.modelcontextprotocol/tasks": {} },
              },
            },
          },
        }),
      });
      expect(response.status).toBe(400);
      const body = (await response.json()) as { error: { code: number } };
      expect(body.error.code).toBe(ErrorCode.HeaderMismatch);
    } finally {
      await handle.close();
      await server.close();
    }
  });
});
