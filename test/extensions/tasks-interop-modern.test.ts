/**
 * The official tasks requester (`@modelcontextprotocol/ext-tasks`) in its 2026-07-28 mode
 * (SEP-2663) over the official SDK v2 client against our tasks server over Streamable HTTP on
 * 127.0.0.1: the requester's task traffic goes through `rawDispatch`, a plain POST of each
 * framed request with the headers of SEP-2243.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import {
  createTaskSessionFromClient,
  resultFromTaskOutcome,
  toolDeclarationFromMcpTool,
} from "@modelcontextprotocol/ext-tasks/client";
import { describe, expect, it } from "vitest";
import { taskServer } from "./tasks-fixture.js";

const VERSION = "2026-07-28";
const CLIENT_INFO = { name: "ext-tasks", version: "0.2.2" };

type Framed = { method: string; params?: { name?: string; taskId?: string } };

/** POSTs one framed request and gives its response the way the requester reads it. */
function rawDispatch(url: string) {
  let id = 0;
  return async (request: unknown) => {
    const framed = request as Framed;
    const name = framed.params?.taskId ?? framed.params?.name;
    const response = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": VERSION,
        "mcp-method": framed.method,
        ...(name === undefined ? {} : { "mcp-name": name }),
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: ++id, ...framed }),
    });
    const text = await response.text();
    // An SSE answer ends with the response; a JSON one is the response.
    const body = response.headers.get("content-type")?.includes("text/event-stream")
      ? text
          .split("\n")
          .filter((line) => line.startsWith("data:"))
          .map((line) => JSON.parse(line.slice(5)))
          .find((message) => "result" in message || "error" in message)
      : JSON.parse(text);
    return "error" in body
      ? { kind: "error" as const, error: body.error }
      : { kind: "result" as const, result: body.result };
  };
}

describe("@modelcontextprotocol/ext-tasks against our tasks server (2026-07-28)", () => {
  it("runs a tool as a task to its result, answers its input requests, and cancels another", async () => {
    const { server, seen } = taskServer();
    const deliveries: string[] = [];
    const handle = await server.serveHttp();
    const client = new Client(CLIENT_INFO, { versionNegotiation: { mode: { pin: VERSION } } });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(handle.url)));
      expect(client.getProtocolEra()).toBe("modern");
      const session = createTaskSessionFromClient(client, {
        endpointId: "interop-modern",
        rawDispatch: rawDispatch(handle.url),
        v2RequestFraming: {
          protocolVersion: VERSION,
          clientInfo: CLIENT_INFO,
          clientCapabilities: { elicitation: { form: {} } },
        },
        onInputRequest: async (request, context) => {
          deliveries.push(`${request.kind} ${context.delivery}`);
          return { action: "accept", content: { confirm: true } } as never;
        },
      });
      const { tools } = await client.listTools();
      const declaration = toolDeclarationFromMcpTool(tools.find((tool) => tool.name === "run")!);
      try {
        const execution = await session.callTool("run", { ms: 300, label: "modern" }, { declaration });
        expect(execution.kind).toBe("task");
        const { outcome } = await execution.settle();
        const result = resultFromTaskOutcome(outcome) as { content: { type: string; text: string }[] };
        expect(result.content).toEqual([{ type: "text", text: "modern done" }]);
        // A task waiting on an elicitation: tasks/get shows it, tasks/update answers it.
        const confirm = toolDeclarationFromMcpTool(tools.find((tool) => tool.name === "confirm")!);
        const asking = await session.callTool("confirm", { file: "a.txt" }, { declaration: confirm });
        expect(asking.kind).toBe("task");
        const answered = resultFromTaskOutcome((await asking.settle()).outcome) as {
          content: { text: string }[];
        };
        expect(answered.content[0]!.text).toBe("deleted a.txt");
        expect(deliveries).toEqual(["elicitation task-update"]);
        const long = await session.callTool("run", { ms: 60_000, label: "stopped" }, { declaration });
        expect(long.kind).toBe("task");
        await long.cancel();
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
