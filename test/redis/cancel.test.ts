/** A client's notifications/cancelled, POSTed to another replica than the one running the request, cancels it there. */
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { until } from "../helpers/until.js";
import { openSession, readEvents } from "./helpers/raw.js";
import { type RedisProcess, startRedis } from "./helpers/redis-server.js";
import { type Replica, startReplicas } from "./helpers/replicas.js";

vi.setConfig({ testTimeout: 30_000, hookTimeout: 60_000 });

let redis: RedisProcess;
let replicas: Replica[];
beforeAll(async () => {
  redis = await startRedis();
  replicas = await startReplicas(2, redis.url);
});
afterAll(async () => {
  await Promise.all((replicas ?? []).map((r) => r.kill()));
  await redis?.stop();
});

it("cancels a call running on one replica from another", async () => {
  const [a, b] = replicas.map((r) => `http://127.0.0.1:${r.port}/mcp`) as [string, string];
  const headers = await openSession(a);
  const response = await fetch(a, {
    method: "POST",
    headers,
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 9,
      method: "tools/call",
      params: { name: "slow", arguments: { n: 600 }, _meta: { progressToken: "c" } },
    }),
  });
  // The client stops reading after the first progress event and cancels through the other replica.
  const controller = new AbortController();
  let cancelled: Promise<Response> | undefined;
  await readEvents(
    response,
    (event) => {
      if (event.data?.method !== "notifications/progress" || cancelled) return;
      cancelled = fetch(b, {
        method: "POST",
        headers,
        body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 9 } }),
      });
      controller.abort();
    },
    controller.signal,
  );
  expect((await cancelled!).status).toBe(202);
  // The replica running the call saw it cancelled (polled, within a bound; 600 steps take a minute).
  const cancellations = async () => {
    const answer = await fetch(a, {
      method: "POST",
      headers: { ...headers, accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 10,
        method: "tools/call",
        params: { name: "cancellations" },
      }),
    });
    const seen = ((await answer.json()) as { result: { content: { text: string }[] } }).result.content[0]!
      .text;
    return seen === "0" ? undefined : seen;
  };
  const what = "the replica running the call to see it cancelled";
  expect(await until(cancellations, { what, intervalMs: 100 })).toBe("1");
});
