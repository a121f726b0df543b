/**
 * A 2025-11-25 task run on one replica, polled and fetched on the others: the tasks extension
 * keeps its tasks in Redis (redisReplication's taskStore()).
 */
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { initializeParams } from "../helpers/initialize.js";
import { until } from "../helpers/until.js";
import { HEADERS } from "./helpers/raw.js";
import { type RedisProcess, startRedis } from "./helpers/redis-server.js";
import { type Replica, startReplicas } from "./helpers/replicas.js";

vi.setConfig({ testTimeout: 30_000, hookTimeout: 60_000 });

let redis: RedisProcess;
let replicas: Replica[];
beforeAll(async () => {
  redis = await startRedis();
  replicas = await startReplicas(3, redis.url);
});
afterAll(async () => {
  await Promise.all((replicas ?? []).map((r) => r.kill()));
  await redis?.stop();
});

type Json = Record<string, any>;

it("creates a task on one replica, answers tasks/get and tasks/result for it on the others", async () => {
  const [a, b, c] = replicas.map((r) => `http://127.0.0.1:${r.port}/mcp`) as [string, string, string];
  let id = 0;
  const post = async (url: string, headers: Record<string, string>, method: string, params: Json) => {
    const response = await fetch(url, {
      method: "POST",
      headers,
      body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params }),
    });
    const text = await response.text();
    const json = text.startsWith("{") ? JSON.parse(text) : JSON.parse(/data: (\{.*\})/.exec(text)![1]!);
    return { response, json: json as Json };
  };
  const init = await post(a, HEADERS, "initialize", initializeParams({ capabilities: { tasks: {} } }));
  const session = { ...HEADERS, "mcp-session-id": init.response.headers.get("mcp-session-id")! };
  expect(init.json.result.capabilities.tasks).toBeDefined();
  await fetch(b, {
    method: "POST",
    headers: session,
    body: '{"jsonrpc":"2.0","method":"notifications/initialized"}',
  });

  const created = await post(a, session, "tools/call", { name: "job", arguments: {}, task: { ttl: 60_000 } });
  const taskId = created.json.result.task.taskId as string;
  expect(created.json.result.task.status).toBe("working");

  let asked = 0;
  const status = await until(
    async () => {
      const got = await post(asked++ % 2 ? b : c, session, "tasks/get", { taskId });
      return got.json.result.status === "working" ? undefined : (got.json.result.status as string);
    },
    { what: "the task to leave working", intervalMs: 100 },
  );
  expect(status).toBe("completed");
  const result = await post(c, session, "tasks/result", { taskId });
  expect(result.json.result.content).toEqual([{ type: "text", text: `job done on ${replicas[0]!.pid}` }]);
  const listed = await post(b, session, "tasks/list", {});
  expect(listed.json.result.tasks.map((t: Json) => t.taskId)).toContain(taskId);
});
