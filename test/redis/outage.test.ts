/**
 * Redis stopped while three replicas serve, then started again: what needs it fails with a JSON-RPC
 * error saying so, stateless (2026-07-28) requests go on, and service comes back without a restart.
 */
import { describe, expect, it, vi } from "vitest";
import { McpClient } from "../../src/client/index.js";
import { initializeRequest } from "../helpers/initialize.js";
import { until } from "../helpers/until.js";
import { useCluster } from "./helpers/cluster.js";
import { HEADERS, openSession } from "./helpers/raw.js";
import { REPLICA, startReplica } from "./helpers/replicas.js";

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const cluster = useCluster(3);

const initialize = () =>
  fetch(cluster.balancer.url, {
    method: "POST",
    headers: HEADERS,
    body: JSON.stringify(initializeRequest()),
  });

describe("Redis lost while serving, then back", () => {
  it("refuses what needs Redis with a JSON-RPC error, serves stateless requests, and recovers", async () => {
    const session = await openSession(cluster.balancer.url);
    const stateless = await McpClient.connect({ url: cluster.balancer.url, protocolVersion: "2026-07-28" });
    try {
      await cluster.redis.stop();

      // A new session needs Redis: every replica says why it cannot open one.
      for (let i = 0; i < 3; i++) {
        const refused = await initialize();
        expect(refused.status).toBe(503);
        const body = (await refused.json()) as { error: { message: string } };
        expect(body).toMatchObject({ jsonrpc: "2.0", id: 1, error: { code: -32000 } });
        expect(body.error.message).toMatch(/session store cannot be reached.*Redis/);
      }
      // A replica that has not served the session yet must read it from Redis.
      const statuses = [];
      for (let i = 0; i < 3; i++) {
        const response = await fetch(cluster.balancer.url, {
          method: "POST",
          headers: session,
          body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
        });
        statuses.push(response.status);
        if (response.status === 503)
          expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(/Redis/);
        else await response.text();
      }
      expect(statuses).toContain(503);
      // Stateless requests need no shared state: served by every replica.
      for (let i = 0; i < 3; i++)
        expect((await stateless.callTool("echo", { text: "still" })).text()).toBe("still");

      await cluster.redis.start();
      // The replicas reconnect on their own (bounded backoff); new sessions open on each again.
      let opened = 0;
      await until(
        async () => {
          const response = await initialize();
          await response.text();
          opened = response.status === 200 ? opened + 1 : 0;
          return opened === 3;
        },
        { what: "three sessions in a row to open after Redis came back", timeoutMs: 30_000, intervalMs: 200 },
      );
      const client = await McpClient.connect({ url: cluster.balancer.url, protocolVersion: "2025-11-25" });
      const pids = new Set<string>();
      for (let i = 0; i < 3; i++) pids.add((await client.callTool("whoami")).text());
      expect(pids.size).toBe(3);
      await client.close();
    } finally {
      await stateless.close();
    }
  });

  it("exits with a clear error when Redis cannot be reached at start", async () => {
    const error = await startReplica([REPLICA, "redis://127.0.0.1:1"]).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).toMatch(/exited \(3\).*cannot connect to Redis at 127\.0\.0\.1:1/s);
  });
});
