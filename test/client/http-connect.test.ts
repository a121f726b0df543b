import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { McpClient } from "../../src/client/index.js";
import { createEverythingServer } from "../../src/servers/index.js";
import type { HttpServerHandle } from "../../src/transports/http/server/index.js";
import { MessageLog } from "../helpers/spec-schema.js";

let handles: HttpServerHandle[] = [];
let clients: McpClient[] = [];
afterEach(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await Promise.all(handles.map((h) => h.close()));
  clients = [];
  handles = [];
});

async function serve(options: Parameters<ReturnType<typeof createEverythingServer>["serveHttp"]>[0] = {}) {
  const handle = await createEverythingServer().serveHttp(options);
  handles.push(handle);
  return handle;
}

async function connect(options: Parameters<typeof McpClient.connect>[0]) {
  const client = await McpClient.connect(options);
  clients.push(client);
  return client;
}

describe("McpClient.connect({ url })", () => {
  it("speaks Streamable HTTP: JSON answers, SSE progress, every message schema-valid", async () => {
    const { url } = await serve();
    const log = new MessageLog();
    const client = await connect({
      url,
      trace: (direction, message) => log.record(direction === "send" ? "client" : "server", message),
    });
    expect(client.transport.constructor.name).toBe("StreamableHttpClientTransport");
    // Our server speaks both eras; the client prefers the stateless one.
    expect(client.protocolVersion).toBe("2026-07-28");
    expect((await client.callTool("test_simple_text")).text()).toBe(
      "This is a simple text response for testing.",
    );
    const progress: number[] = [];
    await client.callTool("test_tool_with_progress", {}, { onProgress: (p) => progress.push(p.progress) });
    expect(progress).toEqual([0, 50, 100]);
    expect(log.problems(client.protocolVersion)).toEqual([]);
  });

  it("falls back to the legacy HTTP+SSE transport when the URL has no Streamable HTTP endpoint", async () => {
    const { url } = await serve({ legacySse: true });
    const client = await connect({ url: url.replace(/\/mcp$/, "/sse") });
    expect(client.transport.constructor.name).toBe("SseClientTransport");
    expect((await client.callTool("test_simple_text")).isError).toBeUndefined();
  });

  it("starts a new session once when the server forgot it, and retries the call", async () => {
    const handle = await serve();
    // Sessions belong to the handshake era.
    const client = await connect({ url: handle.url, protocolVersion: "2025-11-25" });
    const first = (client.transport as unknown as { sessionId: string }).sessionId;
    await handle.handler.close();
    expect((await client.callTool("test_simple_text")).text()).toContain("simple text");
    const second = (client.transport as unknown as { sessionId: string }).sessionId;
    expect(second).toBeTypeOf("string");
    expect(second).not.toBe(first);
    expect(handle.handler.sessionCount).toBe(1);
  });

  it("sends custom headers on every request, including the GET stream and DELETE", async () => {
    const seen: { method: string; headers: IncomingHttpHeaders }[] = [];
    const mcp = await serve();
    // A pass-through proxy that records what the client sends.
    const proxy = createServer((req, res) => {
      seen.push({ method: req.method!, headers: req.headers });
      const upstream = new URL(mcp.url);
      const forward = fetch(upstream, {
        method: req.method,
        headers: { ...(req.headers as Record<string, string>), host: upstream.host },
        body: req.method === "POST" ? (req as unknown as ReadableStream) : undefined,
        duplex: "half",
      } as RequestInit);
      forward.then(
        async (response) => {
          res.writeHead(response.status, Object.fromEntries(response.headers));
          if (!response.body) return res.end();
          for await (const chunk of response.body) res.write(chunk);
          res.end();
        },
        () => res.destroy(),
      );
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    try {
      const port = (proxy.address() as AddressInfo).port;
      const client = await McpClient.connect({
        url: `http://localhost:${port}/mcp`,
        headers: { authorization: "Bearer t0ken" },
        // The GET stream and DELETE belong to the handshake era's sessions.
        protocolVersion: "2025-11-25",
      });
      await client.ping();
      await expect.poll(() => seen.some((r) => r.method === "GET")).toBe(true);
      await client.close();
      const methods = new Set(seen.map((r) => r.method));
      expect(methods).toEqual(new Set(["POST", "GET", "DELETE"]));
      for (const request of seen) expect(request.headers.authorization).toBe("Bearer t0ken");
    } finally {
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
    }
  });
});
