/**
 * RedisTaskStore against a real redis-server, through two connections as two replicas would: a
 * task created by one is read, updated and listed by the other; terminal tasks never change;
 * expiry, owners, pages and the cap hold across both.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TaskRecord } from "../../src/extensions/tasks/index.js";
import { RedisConnection, RedisTaskStore } from "../../src/redis/index.js";
import { type RedisProcess, startRedis } from "./helpers/redis-server.js";

let redis: RedisProcess;
let one: RedisConnection;
let two: RedisConnection;
let clock = 1_000_000;
const now = () => clock;

beforeAll(async () => {
  redis = await startRedis();
  one = await RedisConnection.open({ url: redis.url });
  two = await RedisConnection.open({ url: redis.url });
});
afterAll(async () => {
  await one?.close();
  await two?.close();
  await redis?.stop();
});

const task = (taskId: string, extra: Partial<TaskRecord> = {}): TaskRecord => ({
  taskId,
  status: "working",
  createdAt: clock,
  lastUpdatedAt: clock,
  ttl: 60_000,
  method: "tools/call",
  ...extra,
});

describe("RedisTaskStore shared by two replicas", () => {
  it("reads, updates and ends on one replica a task the other created", async () => {
    const a = new RedisTaskStore(one, "t1:", { now });
    const b = new RedisTaskStore(two, "t1:", { now });
    await a.create(task("x"));
    expect(await b.get("x")).toMatchObject({ taskId: "x", status: "working" });
    clock += 5;
    expect(
      await b.update("x", {
        status: "input_required",
        inputRequests: { q: { method: "elicitation/create" } },
      }),
    ).toMatchObject({
      status: "input_required",
      lastUpdatedAt: clock,
    });
    expect(
      await a.update("x", { status: "completed", result: { content: [] }, inputRequests: undefined }),
    ).toEqual({
      ...task("x", { createdAt: clock - 5 }),
      status: "completed",
      result: { content: [] },
      lastUpdatedAt: clock,
    });
    // Terminal: neither replica changes it again.
    expect(await b.update("x", { status: "failed" })).toMatchObject({ status: "completed" });
    expect((await a.get("x"))?.status).toBe("completed");
    await expect(a.create(task("x"))).rejects.toThrow(/exists already/);
    expect(await a.get("unknown")).toBeUndefined();
    expect(await a.update("unknown", { status: "failed" })).toBeUndefined();
  });

  it("keeps concurrent updates from both replicas, none lost", async () => {
    const a = new RedisTaskStore(one, "t2:", { now });
    const b = new RedisTaskStore(two, "t2:", { now });
    await a.create(task("y"));
    await Promise.all([a.update("y", { statusMessage: "from a" }), b.update("y", { pollInterval: 250 })]);
    expect(await a.get("y")).toMatchObject({ statusMessage: "from a", pollInterval: 250 });
  });

  it("lists an owner's unexpired tasks in creation order, in pages, on either replica", async () => {
    const a = new RedisTaskStore(one, "t3:", { now });
    const b = new RedisTaskStore(two, "t3:", { now });
    for (const id of ["p1", "p2", "p3", "p4", "p5"]) await a.create(task(id, { owner: "alice" }));
    await a.create(task("q1", { owner: "bob" }));
    await a.create(task("short", { owner: "alice", ttl: 10 }));
    await a.create(task("n1"));
    clock += 20; // "short" has expired
    const first = await b.list({ limit: 2, owner: "alice" });
    expect(first.tasks.map((t) => t.taskId)).toEqual(["p1", "p2"]);
    const second = await a.list({ limit: 2, owner: "alice", cursor: first.nextCursor });
    expect(second.tasks.map((t) => t.taskId)).toEqual(["p3", "p4"]);
    const third = await b.list({ limit: 2, owner: "alice", cursor: second.nextCursor });
    expect(third).toEqual({ tasks: [expect.objectContaining({ taskId: "p5" })] });
    expect((await a.list({ limit: 10 })).tasks.map((t) => t.taskId)).toEqual(["n1"]);
    expect(await a.get("short")).toBeUndefined();
    await expect(a.list({ limit: 1, cursor: "not a cursor" })).rejects.toThrow(/Invalid cursor/);
  });

  it("refuses a task beyond the cap, counted over both replicas", async () => {
    const a = new RedisTaskStore(one, "t4:", { now, maxTasks: 2 });
    const b = new RedisTaskStore(two, "t4:", { now, maxTasks: 2 });
    await a.create(task("c1"));
    await b.create(task("c2"));
    await expect(a.create(task("c3"))).rejects.toThrow(/Too many tasks: the server keeps at most 2/);
  });
});
