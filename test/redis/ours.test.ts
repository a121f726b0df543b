/**
 * mcpkit's client, in a 2025-11-25 session, through a round-robin balancer (no stickiness) to three
 * replica processes sharing one redis-server: every request may land on another replica.
 */
import { describe, expect, it, vi } from "vitest";
import { McpClient } from "../../src/client/index.js";
import { until } from "../helpers/until.js";
import { useCluster } from "./helpers/cluster.js";

vi.setConfig({ testTimeout: 30_000, hookTimeout: 60_000 });

const cluster = useCluster(3);

function connect(onElicit?: () => void) {
  return McpClient.connect({
    url: cluster.balancer.url,
    protocolVersion: "2025-11-25",
    elicitation: async () => {
      onElicit?.();
      return { action: "accept", content: { name: "Ada" } };
    },
  });
}

describe("mcpkit's client through the balancer to three replicas", () => {
  it("lists and calls, served by every replica in one session", async () => {
    const client = await connect();
    try {
      expect((await client.listTools()).map((t) => t.name)).toContain("echo");
      const pids = new Set<string>();
      for (let i = 0; i < 6; i++) pids.add((await client.callTool("whoami")).text());
      expect(pids).toEqual(new Set(cluster.replicas.map((r) => String(r.pid))));
      expect((await client.callTool("echo", { text: "hi" })).text()).toBe("hi");
    } finally {
      await client.close();
    }
  });

  it("answers an elicitation raised on one replica with a response POSTed to another", async () => {
    const client = await connect();
    try {
      for (let i = 0; i < 3; i++) expect((await client.callTool("ask")).text()).toMatch(/^accept:Ada:\d+$/);
    } finally {
      await client.close();
    }
  });

  it("delivers resources/updated raised on any replica to a subscription made on another", async () => {
    const client = await connect();
    const updates: string[] = [];
    client.on("resourceUpdated", ({ uri }) => void updates.push(uri));
    try {
      await client.subscribeResource("test://watched");
      for (let i = 0; i < 3; i++) await client.callTool("touch", { uri: "test://watched" });
      await client.callTool("touch", { uri: "test://other" });
      await until(() => updates.length >= 3, { what: "three resources/updated" });
      expect(updates).toEqual(["test://watched", "test://watched", "test://watched"]);
    } finally {
      await client.close();
    }
  });

  it("honours a logging level set on one replica on all of them", async () => {
    const client = await connect();
    const logs: string[] = [];
    client.on("log", ({ level }) => void logs.push(level));
    try {
      await client.setLoggingLevel("warning");
      for (let i = 0; i < 3; i++) await client.callTool("log");
      await until(() => logs.length >= 6, { what: "six log messages" });
      expect(logs).toEqual(["warning", "error", "warning", "error", "warning", "error"]);
    } finally {
      await client.close();
    }
  });

  it("delivers list changes and resource updates raised on any replica to 2025 sessions and 2026 listen streams", async () => {
    const legacy = await connect();
    const modern = await McpClient.connect({ url: cluster.balancer.url, protocolVersion: "2026-07-28" });
    const other = await connect();
    const seen = { legacyLists: 0, modernLists: 0, modernUpdates: [] as string[] };
    legacy.on("toolsListChanged", () => void seen.legacyLists++);
    modern.on("toolsListChanged", () => void seen.modernLists++);
    modern.on("resourceUpdated", ({ uri }) => void seen.modernUpdates.push(uri));
    try {
      await modern.subscribeResource("test://watched");
      // The listen stream is open (on one replica) once a first update arrives through it.
      await other.callTool("touch", { uri: "test://watched" });
      await until(() => seen.modernUpdates.length >= 1, {
        what: "the first resources/updated on the 2026-07-28 client",
      });
      for (let i = 0; i < 3; i++) await other.callTool("grow");
      for (let i = 0; i < 3; i++) await other.callTool("touch", { uri: "test://watched" });
      await until(() => seen.legacyLists >= 3 && seen.modernLists >= 3 && seen.modernUpdates.length >= 4, {
        what: "three list changes on each client and four updates on the 2026-07-28 one",
      });
      expect(seen.modernUpdates).toEqual(Array(4).fill("test://watched"));
    } finally {
      await Promise.all([legacy.close(), modern.close(), other.close()]);
    }
  });

  it("ends a session everywhere on DELETE", async () => {
    const client = await connect();
    const sessionId = (client as unknown as { transport?: { sessionId?: string } }).transport?.sessionId;
    await client.callTool("whoami");
    await client.close();
    for (let i = 0; i < 3; i++) {
      const response = await fetch(cluster.balancer.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2025-11-25",
          "mcp-session-id": sessionId ?? "none",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      });
      expect(response.status).toBe(404);
    }
    expect(cluster.redis.cli("KEYS", "test:session:*")).not.toContain(sessionId ?? "none");
  });
});
