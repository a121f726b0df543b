/**
 * Our HTTP client transports against the official SDK servers (test/helpers/sdk-http-servers.ts):
 * Streamable HTTP (SDK v1 and v2) and the legacy HTTP+SSE transport (SDK v1). Every message the
 * client sends or receives is checked against the negotiated revision's schema.
 */
import { afterEach, describe, expect, it } from "vitest";
import { isSessionExpired, McpClient } from "../../src/client/index.js";
import { ErrorCode, McpError } from "../../src/jsonrpc/errors.js";
import type { ProtocolVersion } from "../../src/protocol/revisions/index.js";
import type { Transport } from "../../src/protocol/transport.js";
import { StreamableHttpClientTransport } from "../../src/transports/http/client/index.js";
import { SseClientTransport } from "../../src/transports/legacy-sse/index.js";
import {
  startSdkV1Sse,
  startSdkV1Streamable,
  startSdkV2Streamable,
  startSilentSse,
  TestHttpServer,
} from "../helpers/sdk-http-servers.js";
import { MessageLog } from "../helpers/spec-schema.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

function later<T>(cleanup: T & { close(): Promise<void> }): T {
  cleanups.push(() => cleanup.close());
  return cleanup;
}

async function connect(transport: Transport, protocolVersion?: ProtocolVersion) {
  const log = new MessageLog();
  const client = later(
    await McpClient.connect({
      transport,
      protocolVersion,
      trace: (direction, message) => log.record(direction === "send" ? "client" : "server", message),
    }),
  );
  return { client, log };
}

/** Resolves at the next GET event stream the server opens. */
function nextStream(http: TestHttpServer): Promise<void> {
  return new Promise((resolve) => {
    http.onStreamOpened = () => resolve();
  });
}

const fast = { initialDelay: 20, maxDelay: 100, maxRetries: 2 };

describe("StreamableHttpClientTransport against the SDK v1 server", () => {
  async function setup(
    options: Partial<ConstructorParameters<typeof StreamableHttpClientTransport>[0]> = {},
  ) {
    const server = await startSdkV1Streamable();
    later(server.http);
    const opened = nextStream(server.http);
    const transport = new StreamableHttpClientTransport({
      url: server.http.url,
      reconnect: fast,
      ...options,
    });
    const { client, log } = await connect(transport);
    const session = server.sessions.get(transport.sessionId!)!;
    return { ...server, transport, client, log, opened, session };
  }

  it("does the handshake with a session, lists and calls tools", async () => {
    const { http, transport, client, log } = await setup();
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(transport.protocolVersion).toBe("2025-11-25");
    expect(client.serverInfo.name).toBe("sdk-v1-http");
    expect((await client.listTools()).map((t) => t.name)).toEqual(["echo", "progress", "poll"]);
    expect((await client.callTool("echo", { message: "hi" })).text()).toBe("hi");
    // A dual-era client first probes for the stateless revision; this server answers 400, so it falls back.
    const [probe, init, ...rest] = http.requests("POST");
    expect(probe!.headers["mcp-method"]).toBe("server/discover");
    expect(probe!.headers["mcp-protocol-version"]).toBe("2026-07-28");
    expect(init!.headers["mcp-session-id"]).toBeUndefined();
    expect(init!.headers["mcp-protocol-version"]).toBeUndefined();
    expect(init!.headers.accept).toBe("application/json, text/event-stream");
    for (const post of rest) {
      expect(post.headers["mcp-session-id"]).toBe(transport.sessionId);
      expect(post.headers["mcp-protocol-version"]).toBe("2025-11-25");
    }
    expect(log.problems(client.protocolVersion)).toEqual([]);
  });

  it("delivers progress and logs streamed on the request's SSE response", async () => {
    const { client, log } = await setup();
    const progress: number[] = [];
    const logs: unknown[] = [];
    client.on("log", (entry) => logs.push(entry.data));
    const result = await client.callTool(
      "progress",
      { steps: 3 },
      { onProgress: (p) => progress.push(p.progress) },
    );
    expect(result.text()).toBe("did 3 steps");
    expect(progress).toEqual([1, 2, 3]);
    expect(logs).toEqual(["step 1", "step 2", "step 3"]);
    expect(log.problems(client.protocolVersion)).toEqual([]);
  });

  it("resumes a response stream the server closes, with GET and Last-Event-ID after `retry`", async () => {
    const { http, client, log, opened } = await setup();
    await opened;
    const progress: number[] = [];
    const result = await client.callTool("poll", {}, { onProgress: (p) => progress.push(p.progress) });
    expect(result.text()).toBe("polled");
    expect(progress).toEqual([1, 2]);
    const resumed = http.requests("GET").filter((r) => r.headers["last-event-id"] !== undefined);
    expect(resumed.length).toBeGreaterThanOrEqual(1);
    expect(resumed[0]!.headers.accept).toBe("text/event-stream");
    expect(log.problems(client.protocolVersion)).toEqual([]);
  });

  it("listens on the GET stream for notifications outside any request, and reconnects it", async () => {
    const { http, client, log, opened, session } = await setup();
    await opened;
    let changed = 0;
    const first = new Promise<void>((resolve) => client.on("toolsListChanged", () => ++changed && resolve()));
    session.server.sendToolListChanged();
    await first;
    // The server drops the GET stream: the client opens it again, from the last event it saw.
    const reopened = nextStream(http);
    session.transport.closeStandaloneSSEStream();
    await reopened;
    const second = new Promise<void>((resolve) =>
      client.on("toolsListChanged", () => changed === 2 && resolve()),
    );
    session.server.sendToolListChanged();
    await second;
    const gets = http.requests("GET");
    expect(gets.length).toBe(2);
    expect(gets[1]!.headers["last-event-id"]).toBeDefined();
    expect(log.problems(client.protocolVersion)).toEqual([]);
  });

  it("sends custom headers on POST, GET and DELETE, and ends the session with DELETE on close", async () => {
    let calls = 0;
    const { http, transport, client, opened, sessions } = await setup({
      headers: () => ({ "X-Test": `call-${++calls}`, Authorization: "Bearer t0k" }),
    });
    await opened;
    await client.callTool("echo", { message: "x" });
    const sessionId = transport.sessionId;
    await client.close();
    expect(client.isClosed).toBe(true);
    const deletes = http.requests("DELETE");
    expect(deletes).toHaveLength(1);
    expect(deletes[0]!.headers["mcp-session-id"]).toBe(sessionId);
    for (const request of http.seen) {
      expect(request.headers["x-test"]).toMatch(/^call-\d+$/);
      expect(request.headers.authorization).toBe("Bearer t0k");
    }
    expect(new Set(http.seen.map((r) => r.method))).toEqual(new Set(["POST", "GET", "DELETE"]));
    expect(sessions.size).toBe(0);
    // The keep-alive sockets are gone too.
    await expect.poll(() => http.connections()).toBe(0);
  });

  it("works through a user-supplied fetch", async () => {
    const methods: string[] = [];
    const { client, log, opened } = await setup({
      fetch: (input, init) => {
        methods.push(init?.method ?? "GET");
        return fetch(input, init);
      },
    });
    await opened;
    expect((await client.callTool("echo", { message: "via fetch" })).text()).toBe("via fetch");
    const progress: number[] = [];
    await client.callTool("poll", {}, { onProgress: (p) => progress.push(p.progress) });
    expect(progress).toEqual([1, 2]);
    await client.close();
    expect(methods).toContain("POST");
    expect(methods).toContain("GET");
    expect(methods).toContain("DELETE");
    expect(log.problems(client.protocolVersion)).toEqual([]);
  });

  it("reports HTTP 404 for a session the server forgot as the session-expired error", async () => {
    const { client, transport, session } = await setup();
    await session.transport.close();
    // The engine itself, without McpClient's one re-initialization, shows the transport's error.
    const error = (await client.peer
      .request("tools/call", { name: "echo", arguments: { message: "late" } })
      .catch((e) => e)) as McpError;
    expect(isSessionExpired(error)).toBe(true);
    expect(error.code).toBe(-32000);
    expect(error.data).toEqual({ sessionExpired: true, httpStatus: 404 });
    expect(error.message).toMatch(/HTTP 404/);
    transport.resetSession();
    expect(transport.sessionId).toBeUndefined();
    expect(transport.protocolVersion).toBeUndefined();
  });

  it("fails a request with the HTTP status and the start of the body", async () => {
    const { http } = await startSdkV1Sse();
    later(http);
    const transport = new StreamableHttpClientTransport({ url: http.url.replace("/sse", "/nowhere") });
    const error = await McpClient.connect({ transport }).catch((e: McpError) => e);
    expect((error as McpError).message).toMatch(
      /POST http:\/\/127\.0\.0\.1:\d+\/nowhere failed: HTTP 404 Not Found: no such session/,
    );
    expect(isSessionExpired(error)).toBe(false);
  });

  it("fails a request whose event stream ends unanswered with no event id to resume from", async () => {
    const http = later(
      await new TestHttpServer((_req, res) => {
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.end(": the answer never comes\n\n");
      }).listen("/mcp"),
    );
    const transport = new StreamableHttpClientTransport({ url: http.url });
    const error = await McpClient.connect({ transport }).catch((e: McpError) => e);
    expect((error as McpError).message).toMatch(/ended the SSE stream of request \d+ before answering it/);
  });
});

describe("StreamableHttpClientTransport against the SDK v2 server", () => {
  it("does the handshake and calls a tool", async () => {
    const http = later(await startSdkV2Streamable());
    const transport = new StreamableHttpClientTransport({ url: http.url, reconnect: fast });
    const { client, log } = await connect(transport);
    expect(client.serverInfo.name).toBe("sdk-v2-http");
    expect(transport.sessionId).toBeDefined();
    expect((await client.callTool("echo", { message: "v2" })).text()).toBe("v2");
    await client.close();
    expect(http.requests("DELETE")).toHaveLength(1);
    expect(log.problems(client.protocolVersion)).toEqual([]);
  });
});

describe("SseClientTransport (legacy HTTP+SSE) against the SDK v1 server", () => {
  it("discovers the endpoint, does the handshake, calls tools with progress, and closes the stream", async () => {
    const { http, transports } = await startSdkV1Sse();
    later(http);
    const transport = new SseClientTransport({ url: http.url, headers: { "X-Test": "legacy" } });
    const { client, log } = await connect(transport, "2024-11-05");
    expect(client.protocolVersion).toBe("2024-11-05");
    expect(transport.endpoint?.pathname).toBe("/messages");
    expect((await client.listTools()).map((t) => t.name)).toContain("echo");
    expect((await client.callTool("echo", { message: "old" })).text()).toBe("old");
    const progress: number[] = [];
    await client.callTool("progress", { steps: 2 }, { onProgress: (p) => progress.push(p.progress) });
    expect(progress).toEqual([1, 2]);
    for (const request of http.seen) expect(request.headers["x-test"]).toBe("legacy");
    expect(http.requests("GET")[0]!.headers.accept).toBe("text/event-stream");
    expect(log.problems(client.protocolVersion)).toEqual([]);
    await client.close();
    await expect.poll(() => transports.size).toBe(0);
    await expect.poll(() => http.connections()).toBe(0);
  });

  it("rejects start() when no endpoint event arrives in time", async () => {
    const http = later(await startSilentSse());
    const error = await McpClient.connect({
      transport: new SseClientTransport({ url: http.url, endpointTimeout: 200 }),
    }).catch((e: Error) => e);
    // The endpoint deadline's own error (not the handshake's, which would come later), and the stream let go.
    expect(error).toBeInstanceOf(McpError);
    expect(error).toMatchObject({
      code: ErrorCode.RequestTimeout,
      message: expect.stringMatching(
        /sent no endpoint event within 200 ms: is this a legacy HTTP\+SSE MCP server\?$/,
      ),
    });
    await expect.poll(() => http.connections()).toBe(0);
  });

  it("refuses an endpoint on another origin", async () => {
    const http = later(
      await new TestHttpServer((_req, res) => {
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.write("event: endpoint\ndata: http://elsewhere.example/messages\n\n");
      }).listen("/sse"),
    );
    const error = await McpClient.connect({ transport: new SseClientTransport({ url: http.url }) }).catch(
      (e: Error) => e,
    );
    expect((error as Error).message).toMatch(/does not have the origin of the SSE URL/);
  });

  it("rejects start() with the HTTP status when the GET fails", async () => {
    const { http } = await startSdkV1Sse();
    later(http);
    const error = await McpClient.connect({
      transport: new SseClientTransport({ url: http.url.replace("/sse", "/other") }),
    }).catch((e: Error) => e);
    expect((error as Error).message).toMatch(/GET http:\/\/127\.0\.0\.1:\d+\/other failed: HTTP 404/);
  });
});
