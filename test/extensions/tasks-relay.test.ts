/**
 * Two replicas of a tasks server sharing a task store and a message bus, each over HTTP: a
 * `tasks/cancel` sent to the replica that does not run the task aborts the handler on the one
 * that does, and a `tasks/update` sent there hands the handler its answer, acknowledged once the
 * task's record shows the answer taken.
 */
import { describe, expect, it } from "vitest";
import { McpClient } from "../../src/client/index.js";
import { MemoryTaskStore } from "../../src/extensions/tasks/index.js";
import type { MessageBus } from "../../src/server/index.js";
import { taskServer } from "./tasks-fixture.js";

/**
 * Buses of one process's replicas: what one publishes reaches every subscriber of the channel,
 * `delay` ms later (at once when 0).
 */
function buses(count: number, delay = 0): MessageBus[] {
  const channels = new Map<string, Set<(message: string) => void>>();
  return Array.from({ length: count }, (_, i) => ({
    replicaId: `replica-${i}`,
    publish: async (channel: string, message: string) => {
      const listeners = channels.get(channel) ?? new Set();
      for (const listener of listeners) {
        if (delay === 0) queueMicrotask(() => listener(message));
        else setTimeout(() => listener(message), delay);
      }
      return listeners.size;
    },
    subscribe: async (channel: string, listener: (message: string) => void) => {
      const listeners = channels.get(channel) ?? new Set();
      channels.set(channel, listeners);
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  }));
}

/**
 * Two replicas A and B over HTTP sharing a task store and buses delivering `delay` ms late, with a
 * client of each. A's client declares elicitation (so a handler may ask) but is never polled;
 * B's accepts.
 */
async function twoReplicas(delay = 0) {
  const store = new MemoryTaskStore();
  const [busA, busB] = buses(2, delay) as [MessageBus, MessageBus];
  const a = taskServer({ store, bus: busA });
  const b = taskServer({ store, bus: busB });
  const httpA = await a.server.serveHttp();
  const httpB = await b.server.serveHttp();
  const onA = await McpClient.connect({
    url: httpA.url,
    protocolVersion: "2026-07-28",
    elicitation: () => ({ action: "decline" }),
  });
  const onB = await McpClient.connect({
    url: httpB.url,
    protocolVersion: "2026-07-28",
    elicitation: () => ({ action: "accept", content: { confirm: true } }),
  });
  const close = async () => {
    await onA.close();
    await onB.close();
    await httpA.close();
    await httpB.close();
    await a.server.close();
    await b.server.close();
  };
  return { a, b, onA, onB, close };
}

describe("tasks on replicas sharing a store and a bus", () => {
  it("carries a cancel and an update to the replica running the task", async () => {
    const { a, b, onA, onB, close } = await twoReplicas();
    try {
      const running = await onA.callTool("run", { ms: 60_000, label: "far" }, { task: true });
      await expect.poll(() => a.seen.taskIds).toContain(running.id);
      await (await onB.task(running.id)).cancel();
      await expect.poll(() => a.seen.aborted).toEqual(["far"]);
      expect(b.seen.aborted).toEqual([]);

      const asking = await onA.callTool("confirm", { file: "x" }, { task: true });
      // Polled and answered through B only: its answer reaches the handler on A.
      const fromB = await onB.task(asking.id);
      expect((await fromB.result()).text()).toBe("deleted x");
    } finally {
      await close();
    }
  });

  it("answers a tasks/update only once the task no longer shows the question answered", async () => {
    // A slow bus: the update's answer reaches the replica running the task 200 ms later.
    const { onA, onB, close } = await twoReplicas(200);
    type Got = { status: string; inputRequests?: Record<string, unknown> };
    try {
      const asking = await onA.callTool("confirm", { file: "y" }, { task: true });
      const taskId = asking.id;
      const get = () => onB.request<Got>("tasks/get", { taskId });
      await expect.poll(async () => (await get()).status).toBe("input_required");
      const [key] = Object.keys((await get()).inputRequests ?? {});
      expect(key).toBeDefined();
      await onB.request("tasks/update", {
        taskId,
        inputResponses: { [key!]: { action: "accept", content: { confirm: true } } },
      });
      const after = await get();
      expect(Object.keys(after.inputRequests ?? {})).not.toContain(key);
      expect(after.status).not.toBe("input_required");
      expect((await (await onB.task(taskId)).result()).text()).toBe("deleted y");
    } finally {
      await close();
    }
  });
});
