/**
 * Two replicas of a tasks server sharing a task store and a message bus, each over HTTP: a
 * `tasks/cancel` sent to the replica that does not run the task aborts the handler on the one
 * that does, and a `tasks/update` sent there hands the handler its answer.
 */
import { describe, expect, it } from "vitest";
import { McpClient } from "../../src/client/index.js";
import { MemoryTaskStore } from "../../src/extensions/tasks/index.js";
import type { MessageBus } from "../../src/transports/http/server/index.js";
import { taskServer } from "./tasks-fixture.js";

/** Buses of one process's replicas: what one publishes reaches every subscriber of the channel. */
function buses(count: number): MessageBus[] {
  const channels = new Map<string, Set<(message: string) => void>>();
  return Array.from({ length: count }, (_, i) => ({
    replicaId: `replica-${i}`,
    publish: async (channel: string, message: string) => {
      const listeners = channels.get(channel) ?? new Set();
      for (const listener of listeners) queueMicrotask(() => listener(message));
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

describe("tasks on replicas sharing a store and a bus", () => {
  it("carries a cancel and an update to the replica running the task", async () => {
    const store = new MemoryTaskStore();
    const [busA, busB] = buses(2) as [MessageBus, MessageBus];
    const a = taskServer({ store, bus: busA });
    const b = taskServer({ store, bus: busB });
    const httpA = await a.server.serveHttp();
    const httpB = await b.server.serveHttp();
    // A declares elicitation (so the handler may ask) but is never polled: B answers.
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
      await onA.close();
      await onB.close();
      await httpA.close();
      await httpB.close();
      await a.server.close();
      await b.server.close();
    }
  });
});
