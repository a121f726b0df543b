/**
 * Keeping tasks: a result lives until its ttl has passed and not a moment less (a clock the test
 * moves by hand), a thousand tasks at once within a store's cap, and a full store's clear refusal.
 */
import { describe, expect, it } from "vitest";
import { MemoryTaskStore, type TaskRecord } from "../../src/extensions/tasks/index.js";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import { McpServer } from "../../src/server/index.js";
import { connectInMemory } from "../helpers/connect.js";
import { taskServer } from "./tasks-fixture.js";

const record = (taskId: string, createdAt: number, ttl: number | null): TaskRecord => ({
  taskId,
  status: "working",
  createdAt,
  lastUpdatedAt: createdAt,
  ttl,
  method: "tools/call",
});

describe("task store", () => {
  it("keeps a task until createdAt + ttl and drops it then", async () => {
    let now = 1_000_000;
    const store = new MemoryTaskStore({ now: () => now });
    await store.create(record("a", now, 5000));
    await store.create(record("forever", now, null));
    await store.update("a", { status: "completed", result: { content: [] } });
    now += 4999;
    expect((await store.get("a"))?.status).toBe("completed");
    now += 1;
    expect(await store.get("a")).toBeUndefined();
    expect(await store.update("a", { status: "failed" })).toBeUndefined();
    expect((await store.get("forever"))?.status).toBe("working");
  });

  it("never changes a terminal task", async () => {
    const store = new MemoryTaskStore();
    await store.create(record("t", Date.now(), null));
    await store.update("t", { status: "cancelled" });
    const after = await store.update("t", { status: "completed", result: { content: [] } });
    expect(after?.status).toBe("cancelled");
    expect(after?.result).toBeUndefined();
  });

  it("refuses a task beyond maxTasks with a clear error, and takes one once another expired", async () => {
    let now = 0;
    const store = new MemoryTaskStore({ maxTasks: 2, now: () => now });
    await store.create(record("a", now, 10));
    await store.create(record("b", now, 1000));
    await expect(store.create(record("c", now, 1000))).rejects.toThrow(
      "Too many tasks: the server keeps at most 2 (maxTasks); try again once some have expired",
    );
    now = 10;
    await store.create(record("c", now, 1000));
    expect(store.size).toBe(2);
  });

  it("lists pages in creation order, per owner, and refuses a bad cursor with -32602", async () => {
    const store = new MemoryTaskStore();
    for (const id of ["1", "2", "3"]) await store.create({ ...record(id, 0, null), owner: "me" });
    await store.create(record("other", 0, null));
    const first = await store.list({ limit: 2, owner: "me" });
    expect(first.tasks.map((task) => task.taskId)).toEqual(["1", "2"]);
    const second = await store.list({ limit: 2, owner: "me", cursor: first.nextCursor! });
    expect(second).toEqual({ tasks: [expect.objectContaining({ taskId: "3" })] });
    expect((await store.list({ limit: 10 })).tasks.map((task) => task.taskId)).toEqual(["other"]);
    await expect(store.list({ limit: 2, cursor: "!" })).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
    });
  });

  for (const protocolVersion of ["2025-11-25", "2026-07-28"] as const) {
    it(`serves a result until its ttl and answers -32602 after it (${protocolVersion})`, async () => {
      let now = Date.UTC(2026, 0, 1);
      const clock = () => now;
      const { server } = taskServer({ ttl: 60_000, now: clock });
      const { client } = await connectInMemory(server, { protocolVersion });
      const task = await client.callTool("run", { ms: 0, label: "kept" }, { task: true });
      expect((await task.result()).text()).toBe("kept done");
      now += 59_999;
      expect((await task.status()).status).toBe("completed");
      expect((await task.result()).text()).toBe("kept done");
      now += 1;
      await expect(task.status()).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
      await client.close();
      await server.close();
    });
  }

  it("refuses one tasks() extension on two servers", () => {
    const { extension } = taskServer();
    expect(() => new McpServer({ name: "second", version: "1" }, { extensions: [extension] })).toThrow(
      "This tasks() extension serves another server already: give each server its own",
    );
  });

  it("runs 1,000 tasks at once on one server, within the store's cap", async () => {
    const store = new MemoryTaskStore({ maxTasks: 1000 });
    const { server } = taskServer({ store });
    const { client } = await connectInMemory(server, { protocolVersion: "2026-07-28" });
    const handles = await Promise.all(
      Array.from({ length: 1000 }, (_, i) =>
        client.callTool("run", { ms: 200, label: `t${i}` }, { task: true }),
      ),
    );
    expect(new Set(handles.map((task) => task.id)).size).toBe(1000);
    // The store is full: one more task is refused, clearly, while the thousand run.
    const refused = await client.callTool("run", { ms: 0 }, { task: true }).catch((e) => e);
    expect(refused.message).toContain("Too many tasks: the server keeps at most 1000 (maxTasks)");
    const results = await Promise.all(handles.map((task) => task.result()));
    expect(results.map((result) => result.text())).toEqual(handles.map((_, i) => `t${i} done`));
    expect(store.size).toBe(1000);
    await client.close();
    await server.close();
  });
});
