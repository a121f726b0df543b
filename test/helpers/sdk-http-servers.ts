/**
 * Official SDK HTTP servers for the HTTP client transport tests, each on 127.0.0.1 port 0 in the test
 * process: SDK v1 Streamable HTTP (stateful, resumable with an in-memory event store), SDK v1
 * legacy HTTP+SSE, SDK v2 Streamable HTTP (a web-standard transport, bridged to node:http here), and
 * an SSE server that never names its endpoint. Every request's method and headers are recorded.
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer as McpServerV1 } from "@modelcontextprotocol/sdk/server/mcp.js";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import {
  type EventStore,
  StreamableHTTPServerTransport,
} from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import {
  McpServer as McpServerV2,
  WebStandardStreamableHTTPServerTransport as StreamableV2,
} from "@modelcontextprotocol/server";
import { z } from "zod";

export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

/** A listening server; `close()` ends every connection, so nothing is left behind. */
export class TestHttpServer {
  readonly seen: SeenRequest[] = [];
  /** Called with every GET event stream once its head is written. */
  onStreamOpened: ((req: IncomingMessage) => void) | undefined;
  url = "";
  private readonly server = createServer((req, res) => {
    this.seen.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers });
    if (req.method === "GET") {
      const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
      res.writeHead = ((...args: unknown[]) => {
        const out = writeHead(...args);
        if (res.statusCode === 200) queueMicrotask(() => this.onStreamOpened?.(req));
        return out;
      }) as typeof res.writeHead;
    }
    Promise.resolve(this.handler(req, res)).catch((error: Error) => {
      if (!res.headersSent) res.writeHead(500).end(error.message);
    });
  });

  constructor(private readonly handler: Handler) {}

  async listen(path: string): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
    return this;
  }

  /** How many connections are open (clients that closed leave none). */
  connections(): Promise<number> {
    return new Promise((resolve, reject) =>
      this.server.getConnections((e, n) => (e ? reject(e) : resolve(n))),
    );
  }

  requests(method: string): SeenRequest[] {
    return this.seen.filter((r) => r.method === method);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** The tools both Streamable HTTP servers offer. */
function v1Server(): McpServerV1 {
  const server = new McpServerV1(
    { name: "sdk-v1-http", version: "1.0.0" },
    { capabilities: { logging: {} } },
  );
  server.registerTool("echo", { inputSchema: { message: z.string() } }, ({ message }) => ({
    content: [{ type: "text", text: message }],
  }));
  server.registerTool("progress", { inputSchema: { steps: z.number() } }, async ({ steps }, extra) => {
    const token = extra._meta?.progressToken;
    for (let i = 1; i <= steps; i++) {
      if (token !== undefined) {
        await extra.sendNotification({
          method: "notifications/progress",
          params: { progressToken: token, progress: i, total: steps, message: `step ${i}` },
        });
      }
      await extra.sendNotification({
        method: "notifications/message",
        params: { level: "info", data: `step ${i}` },
      });
    }
    return { content: [{ type: "text", text: `did ${steps} steps` }] };
  });
  // Closes its own response stream halfway (SEP-1699 polling): the rest comes on the resumed stream.
  server.registerTool("poll", {}, async (extra) => {
    const token = extra._meta?.progressToken;
    const progress = (progress: number) =>
      token === undefined
        ? Promise.resolve()
        : extra.sendNotification({
            method: "notifications/progress",
            params: { progressToken: token, progress },
          });
    await progress(1);
    extra.closeSSEStream?.();
    // Sent while the client is away: the event store keeps it for the resumed stream.
    await progress(2);
    return { content: [{ type: "text", text: "polled" }] };
  });
  return server;
}

/**
 * An in-memory event store. (The SDK's example `InMemoryEventStore` takes the text before the first
 * "_" of an event id as its stream id, which breaks resuming the standalone stream, "_GET_stream".)
 */
class MemoryEventStore implements EventStore {
  private readonly events: { id: string; streamId: string; message: JSONRPCMessage }[] = [];

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const id = `${streamId}#${this.events.length + 1}`;
    this.events.push({ id, streamId, message });
    return id;
  }

  async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    const index = this.events.findIndex((e) => e.id === lastEventId);
    if (index === -1) return "";
    const { streamId } = this.events[index]!;
    for (const event of this.events.slice(index + 1)) {
      if (event.streamId === streamId) await send(event.id, event.message);
    }
    return streamId;
  }
}

export interface V1Session {
  transport: StreamableHTTPServerTransport;
  server: McpServerV1;
}

/** SDK v1 `McpServer` + `StreamableHTTPServerTransport`, one pair per session, resumable. */
export async function startSdkV1Streamable(): Promise<{
  http: TestHttpServer;
  sessions: Map<string, V1Session>;
}> {
  const sessions = new Map<string, V1Session>();
  const eventStore = new MemoryEventStore();
  const http = new TestHttpServer(async (req, res) => {
    const id = req.headers["mcp-session-id"] as string | undefined;
    const session = id === undefined ? undefined : sessions.get(id);
    if (session) return session.transport.handleRequest(req, res);
    if (id !== undefined) {
      res.writeHead(404, { "content-type": "application/json" });
      res.end(
        JSON.stringify({ jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null }),
      );
      return;
    }
    const server = v1Server();
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      eventStore,
      retryInterval: 20,
      onsessioninitialized: (sid) => {
        sessions.set(sid, { transport, server });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(req, res);
  });
  return { http: await http.listen("/mcp"), sessions };
}

/** SDK v1 `McpServer` + the legacy `SSEServerTransport`: GET /sse, POST /messages?sessionId=…. */
export async function startSdkV1Sse(): Promise<{
  http: TestHttpServer;
  transports: Map<string, SSEServerTransport>;
}> {
  const transports = new Map<string, SSEServerTransport>();
  const http = new TestHttpServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    if (req.method === "GET" && url.pathname === "/sse") {
      const transport = new SSEServerTransport("/messages", res);
      transports.set(transport.sessionId, transport);
      res.on("close", () => transports.delete(transport.sessionId));
      await v1Server().connect(transport);
      return;
    }
    const transport = transports.get(url.searchParams.get("sessionId") ?? "");
    if (req.method === "POST" && url.pathname === "/messages" && transport) {
      await transport.handlePostMessage(req, res);
      return;
    }
    res.writeHead(404).end("no such session");
  });
  return { http: await http.listen("/sse"), transports };
}

/** An event stream that never sends the `endpoint` event. */
export async function startSilentSse(): Promise<TestHttpServer> {
  const http = new TestHttpServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    res.write(": nothing to see\n\n");
  });
  return http.listen("/sse");
}

/** SDK v2 `McpServer` + `WebStandardStreamableHTTPServerTransport`, bridged to node:http. */
export async function startSdkV2Streamable(): Promise<TestHttpServer> {
  const sessions = new Map<string, StreamableV2>();
  const http = new TestHttpServer(async (req, res) => {
    const request = await toWebRequest(req, res);
    const id = req.headers["mcp-session-id"] as string | undefined;
    let transport = id === undefined ? undefined : sessions.get(id);
    if (!transport) {
      const server = new McpServerV2({ name: "sdk-v2-http", version: "2.0.0" });
      server.registerTool(
        "echo",
        { inputSchema: z.object({ message: z.string() }) },
        async ({ message }) => ({
          content: [{ type: "text", text: message }],
        }),
      );
      const created = new StreamableV2({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sid) => {
          sessions.set(sid, created);
        },
      });
      await server.connect(created);
      transport = created;
    }
    await writeWebResponse(await transport.handleRequest(request), res);
  });
  return http.listen("/mcp");
}

/** A node:http request as a web `Request` (the SDK v2 web-standard handlers take those). */
export async function toWebRequest(req: IncomingMessage, res: ServerResponse): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value])
      headers.append(name, one);
  }
  const controller = new AbortController();
  res.on("close", () => controller.abort());
  const body = req.method === "GET" || req.method === "HEAD" ? undefined : Buffer.concat(chunks);
  return new Request(new URL(req.url ?? "/", `http://${req.headers.host}`), {
    method: req.method,
    headers,
    body,
    signal: controller.signal,
  });
}

/** Copies a web `Response` back to node:http, streaming its body. */
export async function writeWebResponse(response: Response, res: ServerResponse): Promise<void> {
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (!response.body) {
    res.end();
    return;
  }
  res.flushHeaders();
  const reader = response.body.getReader();
  res.on("close", () => void reader.cancel().catch(() => {}));
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      res.write(value);
    }
  } catch {
    // the client went away
  }
  res.end();
}
