/** The client's store of the tasks it runs for its server (2025-11-25 client-side tasks). */
import { describe, expect, it } from "vitest";
import { ClientTaskStore } from "../../src/client/tasks/task-store.js";

describe("ClientTaskStore", () => {
  it("keeps at most maxTasks: the oldest ended task makes room, and with none a new one is refused", () => {
    const store = new ClientTaskStore(2);
    const first = store.create("sampling/createMessage", 60_000, 100);
    const second = store.create("elicitation/create", 60_000, 100);
    expect(() => store.create("sampling/createMessage", 60_000, 100)).toThrow(
      "Too many tasks: this client runs at most 2 at once (clientTasks.maxTasks)",
    );
    store.settle(second, "completed", { result: {} });
    const third = store.create("sampling/createMessage", 60_000, 100);
    expect(store.size).toBe(2);
    expect(store.get(first.taskId)).toBe(first);
    expect(() => store.get(second.taskId)).toThrow(`Unknown task: ${second.taskId}`);
    expect(store.get(third.taskId).status).toBe("working");
  });

  it("ends an expired task as failed, aborts its handler and forgets it", async () => {
    let now = 1000;
    const store = new ClientTaskStore(10, () => now);
    const task = store.create("sampling/createMessage", 500, 100);
    now = 1500;
    expect(() => store.get(task.taskId)).toThrow("Unknown task");
    await task.ended;
    expect(task.status).toBe("failed");
    expect(task.error?.message).toContain("expired before it ended");
    expect(task.controller.signal.aborted).toBe(true);
  });

  it("pages tasks oldest first and refuses a cursor it did not give", () => {
    const store = new ClientTaskStore(10);
    const ids = [1, 2, 3].map(() => store.create("elicitation/create", 60_000, 100).taskId);
    const first = store.list(undefined, 2);
    expect(first.tasks.map((task) => task.taskId)).toEqual(ids.slice(0, 2));
    const rest = store.list(first.nextCursor, 2);
    expect(rest).toEqual({ tasks: [expect.objectContaining({ taskId: ids[2] })] });
    expect(() => store.list("not a cursor", 2)).toThrow('Invalid cursor: "not a cursor"');
  });

  it("a terminal task stays as it ended", () => {
    const store = new ClientTaskStore(10);
    const task = store.create("sampling/createMessage", 60_000, 100);
    expect(store.settle(task, "cancelled", { statusMessage: "stop" })).toBe(true);
    expect(store.settle(task, "completed", { result: {} })).toBe(false);
    expect(task.status).toBe("cancelled");
  });
});
