/**
 * `mcpkit serve everything --redis`: two replicas keep their tasks in Redis, and a task started
 * on one is answered (`tasks/update`) and cancelled through the other.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { McpClient } from "../../src/client/index.js";
import { type RedisProcess, startRedis } from "./helpers/redis-server.js";
import { CLI, type Replica, startReplicas } from "./helpers/replicas.js";

vi.setConfig({ testTimeout: 30_000, hookTimeout: 60_000 });

let redis: RedisProcess;
let replicas: Replica[];
beforeAll(async () => {
  redis = await startRedis();
  replicas = await startReplicas(2, redis.url, (url) => [
    CLI,
    "serve",
    "everything",
    "--port",
    "0",
    "--redis",
    url,
  ]);
});
afterAll(async () => {
  await Promise.all((replicas ?? []).map((replica) => replica.kill()));
  await redis?.stop();
});

describe("mcpkit serve everything --redis", () => {
  it("answers and cancels a task of one replica through the other", async () => {
    const [a, b] = replicas.map((replica) => `http://127.0.0.1:${replica.port}/mcp`) as [string, string];
    const onA = await McpClient.connect({
      url: a,
      protocolVersion: "2026-07-28",
      elicitation: () => ({ action: "decline" }),
    });
    const onB = await McpClient.connect({
      url: b,
      protocolVersion: "2026-07-28",
      elicitation: () => ({ action: "accept", content: { confirm: true } }),
    });
    try {
      const asking = await onA.callTool("confirm_delete", { filename: "far.txt" }, { task: true });
      expect((await (await onB.task(asking.id)).result()).text()).toBe("Deleted far.txt");

      const running = await onA.callTool("slow_compute", { seconds: 60 }, { task: true });
      await (await onB.task(running.id)).cancel();
      expect((await running.status()).status).toBe("cancelled");
    } finally {
      await onA.close();
      await onB.close();
    }
  });
});
