/**
 * The official SDK v1 and v2 clients, each in a 2025-11-25 session, through a round-robin balancer
 * to three replica processes on one redis-server: list, call, an elicitation raised on one replica
 * and answered through another, a subscription made on one replica and updates raised on others,
 * a logging level set on one replica and honoured by all, and DELETE.
 */
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from "@modelcontextprotocol/client";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as HttpV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it, vi } from "vitest";
import { until } from "../helpers/until.js";
import { useCluster } from "./helpers/cluster.js";

vi.setConfig({ testTimeout: 30_000, hookTimeout: 60_000 });

const INFO = { name: "replica-interop", version: "0.0.1" };

interface Sdk {
  updates: string[];
  logs: string[];
  call(name: string, args?: Record<string, unknown>): Promise<string>;
  listTools(): Promise<string[]>;
  subscribe(uri: string): Promise<void>;
  setLevel(level: "warning"): Promise<void>;
  sessionId(): string | undefined;
  terminate(): Promise<void>;
  close(): Promise<void>;
}

type Text = { content: { text: string }[] };

async function sdkV1(url: string): Promise<Sdk> {
  const client = new ClientV1(INFO, { capabilities: { elicitation: {} } });
  const updates: string[] = [];
  const logs: string[] = [];
  client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: { name: "Ada" } }));
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updates.push(n.params.uri));
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params.level));
  const transport = new HttpV1(new URL(url));
  await client.connect(transport);
  return {
    updates,
    logs,
    call: async (name, args = {}) =>
      ((await client.callTool({ name, arguments: args })) as Text).content[0]!.text,
    listTools: async () => (await client.listTools()).tools.map((t) => t.name),
    subscribe: async (uri) => void (await client.subscribeResource({ uri })),
    setLevel: async (level) => void (await client.setLoggingLevel(level)),
    sessionId: () => transport.sessionId,
    terminate: () => transport.terminateSession(),
    close: () => client.close(),
  };
}

async function sdkV2(url: string): Promise<Sdk> {
  const client = new ClientV2(INFO, {
    versionNegotiation: { mode: "legacy" },
    capabilities: { elicitation: { form: {} } },
  });
  const updates: string[] = [];
  const logs: string[] = [];
  client.setRequestHandler("elicitation/create", async () => ({
    action: "accept",
    content: { name: "Ada" },
  }));
  client.setNotificationHandler("notifications/resources/updated", (n) => void updates.push(n.params.uri));
  client.setNotificationHandler("notifications/message", (n) => void logs.push(n.params.level));
  const transport = new HttpV2(new URL(url));
  await client.connect(transport);
  return {
    updates,
    logs,
    call: async (name, args = {}) =>
      ((await client.callTool({ name, arguments: args })) as Text).content[0]!.text,
    listTools: async () => (await client.listTools()).tools.map((t) => t.name),
    subscribe: async (uri) => void (await client.subscribeResource({ uri })),
    setLevel: async (level) => void (await client.setLoggingLevel(level)),
    sessionId: () => transport.sessionId,
    terminate: () => transport.terminateSession(),
    close: () => client.close(),
  };
}

const cluster = useCluster(3);

describe.each([
  ["the SDK v1 client", sdkV1],
  ["the SDK v2 client", sdkV2],
])("%s through the balancer to three replicas", (_name, connect) => {
  it("lists, calls on every replica, elicits across replicas, subscribes, logs and ends the session", async () => {
    const client = await connect(cluster.balancer.url);
    try {
      expect(await client.listTools()).toEqual(expect.arrayContaining(["echo", "ask", "touch", "log"]));
      const pids = new Set<string>();
      for (let i = 0; i < 6; i++) pids.add(await client.call("whoami"));
      expect(pids).toEqual(new Set(cluster.replicas.map((r) => String(r.pid))));

      // The request is raised where the call runs; the answer is POSTed wherever the balancer sends it.
      const asked = new Set<string>();
      for (let i = 0; i < 3; i++) {
        const answer = await client.call("ask");
        expect(answer).toMatch(/^accept:Ada:\d+$/);
        asked.add(answer);
      }

      await client.subscribe("test://watched");
      for (let i = 0; i < 3; i++) await client.call("touch", { uri: "test://watched" });
      await until(() => client.updates.length >= 3, { what: "three resources/updated" });
      expect(client.updates).toEqual(["test://watched", "test://watched", "test://watched"]);

      await client.setLevel("warning");
      for (let i = 0; i < 3; i++) await client.call("log");
      await until(() => client.logs.length >= 6, { what: "six log messages" });
      expect(client.logs).toEqual(["warning", "error", "warning", "error", "warning", "error"]);

      const sessionId = client.sessionId()!;
      expect(cluster.redis.cli("EXISTS", `test:session:${sessionId}`)).toBe("1");
      await client.terminate();
      expect(cluster.redis.cli("EXISTS", `test:session:${sessionId}`)).toBe("0");
      for (let i = 0; i < 3; i++) {
        const response = await fetch(cluster.balancer.url, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            "mcp-protocol-version": "2025-11-25",
            "mcp-session-id": sessionId,
          },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
        });
        expect(response.status).toBe(404);
      }
    } finally {
      await client.close();
    }
  });
});
