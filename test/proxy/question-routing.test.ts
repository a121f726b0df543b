/**
 * Which caller an upstream's question goes to when a 2025-11-25 session upstream (a real process
 * over stdio) has several calls in flight and its request names none: the one front session they
 * all come from, or nobody (a clear error) when they come from several; and a caller's
 * `notifications/roots/list_changed`, passed on to that upstream.
 */
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { McpClient } from "../../src/client/index.js";
import { createProxyServer, type ProxyServer } from "../../src/proxy/index.js";
import { createMemoryTransportPair } from "../../src/transports/memory/index.js";
import { until } from "../helpers/until.js";

const ASKING = fileURLToPath(new URL("../fixtures/asking-server.js", import.meta.url));

let cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  cleanups = [];
});

async function proxyOfAsking(): Promise<ProxyServer> {
  const proxy = await createProxyServer({
    upstream: { command: process.execPath, args: [ASKING] },
    clientOptions: { protocolVersion: "2025-11-25" },
  });
  cleanups.push(() => proxy.close());
  return proxy;
}

/** A 2025-11-25 session of the proxy in memory, answering each elicitation with `name`. */
async function caller(proxy: ProxyServer, name: string): Promise<{ client: McpClient; asked: string[] }> {
  const [serverSide, clientSide] = createMemoryTransportPair();
  await proxy.connect(serverSide);
  const asked: string[] = [];
  const client = await McpClient.connect({
    transport: clientSide,
    protocolVersion: "2025-11-25",
    roots: [{ uri: "file:///work" }],
    elicitation: (params) => {
      asked.push(params.message);
      return { action: "accept", content: { name } };
    },
  });
  cleanups.push(() => client.close());
  return { client, asked };
}

describe("an upstream's questions with several calls in flight", () => {
  it("go to the front session all the calls come from", async () => {
    const proxy = await proxyOfAsking();
    const { client, asked } = await caller(proxy, "Ada");
    const [a, b] = await Promise.all([
      client.callTool("ask", { label: "a", together: 2 }),
      client.callTool("ask", { label: "b", together: 2 }),
    ]);
    expect([a.text(), b.text()]).toEqual(["a: accept Ada", "b: accept Ada"]);
    expect(asked.sort()).toEqual(["Name for a?", "Name for b?"]);
  });

  it("are refused, saying why, when the calls come from several front sessions", async () => {
    const proxy = await proxyOfAsking();
    const first = await caller(proxy, "Ada");
    const second = await caller(proxy, "Bob");
    const results = await Promise.all([
      first.client.callTool("ask", { label: "a", together: 2 }).catch((error: Error) => error),
      second.client.callTool("ask", { label: "b", together: 2 }).catch((error: Error) => error),
    ]);
    for (const result of results) {
      const text = result instanceof Error ? result.message : result.text();
      expect(text).toContain("calls of several clients of the proxy are in flight");
    }
    expect([...first.asked, ...second.asked]).toEqual([]);
    // Once only one session's call is in flight, its question is forwarded again.
    expect((await second.client.callTool("ask", { label: "c", together: 1 })).text()).toBe("c: accept Bob");
  });
});

describe("a caller's roots/list_changed", () => {
  it("is passed on to the session upstream", async () => {
    const proxy = await proxyOfAsking();
    const { client } = await caller(proxy, "Ada");
    const heard = async () => Number((await client.callTool("roots_changed", {})).text());
    expect(await heard()).toBe(0);
    client.setRoots([{ uri: "file:///elsewhere" }]);
    // The notification and the next call travel apart: ask until it was heard.
    const count = await until(heard, { what: "the upstream to hear roots/list_changed", intervalMs: 25 });
    expect(count).toBe(1);
  });
});
