/**
 * Tasks end to end, both eras: the server's tasks extension and the client's task handles over
 * an in-memory pair. 2025-11-25 sessions ask with the `task` param; 2026-07-28 requests declare
 * io.modelcontextprotocol/tasks in their `_meta` and the server decides.
 */
import { describe, expect, it } from "vitest";
import type { TaskInfo } from "../../src/client/index.js";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import { connectInMemory } from "../helpers/connect.js";
import { taskServer } from "./tasks-fixture.js";

const elicitation = {
  handler: async (params: { message: string }) =>
    ({ action: "accept", content: { confirm: params.message.includes("a.txt") } }) as const,
};

describe("tasks", () => {
  for (const protocolVersion of ["2025-11-25", "2026-07-28"] as const) {
    describe(protocolVersion, () => {
      it("runs a 3 s tool as a task while the client polls its status", async () => {
        const { server, seen } = taskServer();
        const { client } = await connectInMemory(server, { protocolVersion });
        await client.listTools();
        const task = await client.callTool("run", { ms: 3000, label: "long" }, { task: true });
        expect(task.id).toMatch(/^[0-9a-f-]{36}$/);
        const states: TaskInfo[] = [];
        for await (const info of task) states.push(info);
        expect(states[0]!.status).toBe("working");
        expect(states.at(-1)!.status).toBe(protocolVersion === "2026-07-28" ? "completed" : "completed");
        // Progress became status messages along the way.
        expect(states.some((info) => info.statusMessage?.startsWith("long ("))).toBe(true);
        expect((await task.result()).text()).toBe("long done");
        expect(seen.taskIds).toEqual([task.id]);
        await client.close();
        await server.close();
      });

      it("polls a task to its end when the call did not ask for the handle", async () => {
        const { server } = taskServer();
        const { client } = await connectInMemory(server, { protocolVersion });
        const result = await client.callTool("run", { ms: 100, label: "plain" });
        expect(result.text()).toBe("plain done");
        await client.close();
        await server.close();
      });

      it("runs a task-capable tool to its end for an agent, through asTools()", async () => {
        const { server } = taskServer();
        const { client } = await connectInMemory(server, { protocolVersion, elicitation });
        const tools = await client.asTools();
        const output = await tools.find((tool) => tool.name === "confirm")!.invoke({ file: "a.txt" });
        expect(JSON.stringify(output)).toContain("deleted a.txt");
        await client.close();
        await server.close();
      });

      it("cancels a task mid-run: the handler's signal aborts and the task stays cancelled", async () => {
        const { server, seen } = taskServer();
        const { client } = await connectInMemory(server, { protocolVersion });
        const task = await client.callTool("run", { ms: 60_000, label: "cancelled" }, { task: true });
        expect((await task.status()).status).toBe("working");
        await task.cancel();
        expect((await task.status()).status).toBe("cancelled");
        await expect.poll(() => seen.aborted).toEqual(["cancelled"]);
        expect((await task.status()).status).toBe("cancelled");
        await expect(task.result()).rejects.toThrow();
        await client.close();
        await server.close();
      });

      it("shows a cancelled task's handler an aborted signal when it first looks after the cancellation", async () => {
        const { server } = taskServer();
        let release!: () => void;
        const gate = new Promise<void>((resolve) => {
          release = resolve;
        });
        let sawAborted: boolean | undefined;
        server.tool("late", { task: "required" }, async (_args, ctx) => {
          await gate;
          sawAborted = ctx.signal.aborted;
          return "late done";
        });
        const { client } = await connectInMemory(server, { protocolVersion });
        const task = await client.callTool("late", {}, { task: true });
        await task.cancel();
        release();
        await expect.poll(() => sawAborted).toBe(true);
        expect((await task.status()).status).toBe("cancelled");
        await client.close();
        await server.close();
      });

      it("asks for elicitation mid-run and goes on with the answer", async () => {
        const { server } = taskServer();
        const { client } = await connectInMemory(server, { protocolVersion, elicitation });
        await client.listTools();
        const deleted = await client.callTool("confirm", { file: "a.txt" }, { task: true });
        const states: string[] = [];
        for await (const info of deleted) states.push(info.status);
        expect(states.at(-1)).toBe("completed");
        expect((await deleted.result()).text()).toBe("deleted a.txt");
        // A required tool called plainly is run as a task all the same, and polled.
        expect((await client.callTool("confirm", { file: "b.txt" })).text()).toBe("kept b.txt");
        await client.close();
        await server.close();
      });

      it("answers a tool that never runs as a task inline, and refuses unknown task ids with -32602", async () => {
        const { server } = taskServer();
        const { client } = await connectInMemory(server, { protocolVersion });
        await client.listTools();
        expect((await client.callTool("now")).text()).toBe("inline");
        const handle = await client.callTool("now", {}, { task: true });
        expect(handle.id).toBe("");
        expect((await handle.result()).text()).toBe("inline");
        const unknown = await client.request("tasks/get", { taskId: "nope" }).catch((e) => e);
        expect(unknown.code).toBe(ErrorCode.InvalidParams);
        await client.close();
        await server.close();
      });
    });
  }

  it("refuses a required tool inline: -32021 statelessly without the extension, -32601 in a session without task", async () => {
    const { server } = taskServer();
    const { client: modern } = await connectInMemory(server, { protocolVersion: "2026-07-28", tasks: false });
    const statelessError = await modern
      .request("tools/call", { name: "confirm", arguments: { file: "x" } })
      .catch((e) => e);
    expect(statelessError.code).toBe(ErrorCode.MissingRequiredClientCapability);
    expect(statelessError.data).toEqual({
      requiredCapabilities: { extensions: { "io.modelcontextprotocol/tasks": {} } },
    });
    const { client: legacy } = await connectInMemory(server, { protocolVersion: "2025-11-25" });
    const sessionError = await legacy
      .request("tools/call", { name: "confirm", arguments: { file: "x" } })
      .catch((e) => e);
    expect(sessionError.code).toBe(ErrorCode.MethodNotFound);
    expect(legacy.capabilities.tasks).toEqual({ list: {}, cancel: {}, requests: { tools: { call: {} } } });
    expect(legacy.capabilities.extensions).toBeUndefined();
    expect(modern.capabilities.extensions).toEqual({ "io.modelcontextprotocol/tasks": {} });
    expect(modern.capabilities.tasks).toBeUndefined();
    await modern.close();
    await legacy.close();
    await server.close();
  });

  it("lists a session's tasks page by page (2025-11-25)", async () => {
    const { server } = taskServer({ pageSize: 2 });
    const { client } = await connectInMemory(server, { protocolVersion: "2025-11-25" });
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push((await client.callTool("run", { ms: 0 }, { task: true })).id);
    const listed = await client.listTasks();
    expect(listed.map((task) => task.taskId)).toEqual(ids);
    // Another session lists none of them, though it may reach one by its id.
    const { client: other } = await connectInMemory(server, { protocolVersion: "2025-11-25" });
    expect(await other.listTasks()).toEqual([]);
    expect((await other.task(ids[0]!)).info.taskId).toBe(ids[0]);
    await other.close();
    await client.close();
    await server.close();
  });
});
