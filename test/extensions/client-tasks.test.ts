/**
 * Client-side tasks (2025-11-25) over Streamable HTTP on 127.0.0.1: a server handler asks the
 * client to run a sampling or an elicitation as a task (`{ task }` on ctx.sample / ctx.elicit),
 * the client's ordinary handlers answer it, and the server polls the client's task store.
 */
import { describe, expect, it } from "vitest";
import { type ClientOptions, McpClient } from "../../src/client/index.js";
import { tasks } from "../../src/extensions/tasks/index.js";
import type { JSONRPCMessage } from "../../src/jsonrpc/messages.js";
import { McpServer } from "../../src/server/index.js";

const message = { role: "user" as const, content: { type: "text" as const, text: "hi" } };

function server() {
  return new McpServer({ name: "asks", version: "1" })
    .tool("draft", {}, async (_args, ctx) => {
      const answer = await ctx.sample({ messages: [message], maxTokens: 10 }, { task: { ttl: 60_000 } });
      const listed = await ctx.session.peer.request<{ tasks: { status: string; ttl: number }[] }>(
        "tasks/list",
      );
      return JSON.stringify({
        answer: answer.content,
        listed: listed.tasks,
        asked: ctx.clientCapabilities.tasks,
      });
    })
    .tool("confirm", {}, async (_args, ctx) => {
      const answer = await ctx.elicit(
        { message: "Go on?", requestedSchema: { type: "object", properties: { ok: { type: "boolean" } } } },
        { task: true },
      );
      return answer.action;
    })
    .tool("twice", {}, async (_args, ctx) => {
      const ask = () =>
        ctx.session.peer.request<{ task: { taskId: string } }>("sampling/createMessage", {
          messages: [message],
          maxTokens: 10,
          task: {},
        });
      const first = await ask();
      try {
        await ask();
        return "both";
      } catch (error) {
        return `${first.task.taskId ? "first ran" : "?"}; ${(error as Error).message}`;
      } finally {
        await ctx.session.peer.request("tasks/cancel", { taskId: first.task.taskId });
      }
    });
}

async function connect(url: string, options: Partial<ClientOptions>) {
  const received: JSONRPCMessage[] = [];
  const client = await McpClient.connect({
    url,
    protocolVersion: "2025-11-25",
    trace: (_direction, msg) => {
      received.push(msg);
    },
    ...options,
  } as ClientOptions);
  const methods = () => received.flatMap((msg) => ("method" in msg ? [msg.method] : []));
  return { client, methods, received };
}

describe("client-side tasks (2025-11-25)", () => {
  it("runs a server's sampling as a task with the client's own handler, polled to its result", async () => {
    const http = await server().serveHttp();
    const seen: Record<string, unknown>[] = [];
    const { client, methods } = await connect(http.url, {
      clientTasks: { pollInterval: 20 },
      sampling: async (params) => {
        seen.push(params as unknown as Record<string, unknown>);
        await new Promise((resolve) => setTimeout(resolve, 100));
        return { role: "assistant", content: { type: "text", text: "hello" }, model: "m" };
      },
    });
    try {
      const out = JSON.parse((await client.callTool("draft", {})).text());
      expect(out.answer).toEqual({ type: "text", text: "hello" });
      expect(out.listed).toEqual([expect.objectContaining({ status: "completed", ttl: 60_000 })]);
      expect(out.asked).toEqual({ list: {}, cancel: {}, requests: { sampling: { createMessage: {} } } });
      // The handler saw the request as any other, without `task`.
      expect(seen).toHaveLength(1);
      expect(seen[0]).not.toHaveProperty("task");
      expect(methods()).toContain("tasks/result");
      expect(methods()).toContain("notifications/tasks/status");
    } finally {
      await client.close();
      await http.close();
    }
  });

  it("cancels the client's elicitation task when the server's handler stops waiting", async () => {
    const http = await server().serveHttp();
    let aborted: (reason: unknown) => void;
    const abort = new Promise((resolve) => {
      aborted = resolve;
    });
    let started!: () => void;
    const asked = new Promise<void>((resolve) => {
      started = resolve;
    });
    const { client, methods } = await connect(http.url, {
      clientTasks: true,
      elicitation: (_params, { signal }) =>
        new Promise((_resolve, reject) => {
          started();
          signal.addEventListener("abort", () => {
            aborted(signal.reason);
            reject(signal.reason);
          });
        }),
    });
    try {
      const controller = new AbortController();
      const call = client.callTool("confirm", {}, { signal: controller.signal });
      await asked;
      controller.abort(new Error("stop"));
      await expect(call).rejects.toThrow();
      expect(String(await abort)).toContain("cancelled");
      expect(methods()).toContain("tasks/cancel");
    } finally {
      await client.close();
      await http.close();
    }
  });

  it("asks as a plain request a client that does not run tasks", async () => {
    const http = await server().serveHttp();
    const seen: Record<string, unknown>[] = [];
    const { client, methods } = await connect(http.url, {
      sampling: async (params) => {
        seen.push(params as unknown as Record<string, unknown>);
        return { role: "assistant", content: { type: "text", text: "plain" }, model: "m" };
      },
    });
    try {
      // The server's own tasks/list fails: this client has no tasks.
      await expect(client.callTool("draft", {})).rejects.toThrow("Method not found: tasks/list");
      expect(seen).toHaveLength(1);
      expect(seen[0]).not.toHaveProperty("task");
      expect(methods()).not.toContain("tasks/result");
    } finally {
      await client.close();
      await http.close();
    }
  });

  it("refuses a task beyond maxTasks while the others run", async () => {
    const http = await server().serveHttp();
    const { client } = await connect(http.url, {
      clientTasks: { maxTasks: 1 },
      sampling: (_params, { signal }) =>
        new Promise((_resolve, reject) => signal.addEventListener("abort", reject)),
    });
    try {
      expect((await client.callTool("twice", {})).text()).toMatch(/^first ran; Too many tasks: .*at most 1/);
    } finally {
      await client.close();
      await http.close();
    }
  });

  it("asks as a task from within a tool's own task: input_required meanwhile, each request related to it", async () => {
    const server = new McpServer(
      { name: "tasked", version: "1" },
      { extensions: [tasks({ pollInterval: 20 })] },
    ).tool("summarize", { task: "optional" }, async (_args, ctx) => {
      const answer = await ctx.sample({ messages: [message], maxTokens: 10 }, { task: true });
      return `${ctx.task!.id}: ${(answer.content as { text: string }).text}`;
    });
    const http = await server.serveHttp();
    const { client, received } = await connect(http.url, {
      clientTasks: { pollInterval: 20 },
      sampling: async () => ({ role: "assistant", content: { type: "text", text: "short" }, model: "m" }),
    });
    try {
      const task = await client.callTool("summarize", {}, { task: true });
      expect((await task.result()).text()).toBe(`${task.id}: short`);
      const related = (method: string) =>
        received
          .filter((m) => "method" in m && m.method === method && "id" in m)
          .map(
            (m) =>
              (m as { params: { _meta?: Record<string, unknown> } }).params._meta?.[
                "io.modelcontextprotocol/related-task"
              ],
          );
      expect(related("sampling/createMessage")).toEqual([{ taskId: task.id }]);
      // The server's tasks/result for the client's task is related to its own; the client's own
      // tasks/result, for the tool's task, is not.
      expect(related("tasks/result")).toEqual([{ taskId: task.id }, undefined]);
      const announced = received.flatMap((m) =>
        "method" in m && m.method === "notifications/tasks/status"
          ? [m.params as { taskId: string; status: string }]
          : [],
      );
      expect(announced).toContainEqual(
        expect.objectContaining({ taskId: task.id, status: "input_required" }),
      );
    } finally {
      await client.close();
      await http.close();
      await server.close();
    }
  });
});
