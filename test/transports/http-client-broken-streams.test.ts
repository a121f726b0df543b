/**
 * Response streams that break, against a bare node:http server (what reaches the wire is what is
 * checked): statelessly a request is sent again once, as a new request, only if that is safe, and
 * otherwise fails with a retriable error; in a session a stream is resumed a bounded number of
 * times; a stream that never says anything is cut by the request's timeout.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { McpClient } from "../../src/client/index.js";
import { ErrorCode, type McpError } from "../../src/jsonrpc/errors.js";

type Message = { id?: number | string; method?: string; params?: Record<string, unknown> };
type Route = (message: Message, res: ServerResponse, req: IncomingMessage) => void;

const servers: { close(): Promise<void> }[] = [];
const clients: McpClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A server that answers each POSTed message with `route`, and each GET with `get` (405 if none). */
async function rawServer(route: Route, get?: (req: IncomingMessage, res: ServerResponse) => void) {
  const seen: Message[] = [];
  const server = createServer((req, res) => {
    if (req.method === "DELETE") return void res.writeHead(200).end();
    if (req.method === "GET") return get ? get(req, res) : void res.writeHead(405).end();
    let body = "";
    req.setEncoding("utf8").on("data", (chunk: string) => {
      body += chunk;
    });
    req.on("end", () => {
      const message = JSON.parse(body) as Message;
      seen.push(message);
      if (message.id === undefined) return void res.writeHead(202).end();
      route(message, res, req);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  servers.push({
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  return { url, seen, calls: (name: string) => seen.filter((m) => m.params?.name === name) };
}

const json = (res: ServerResponse, id: unknown, result: object) =>
  res
    .writeHead(200, { "content-type": "application/json" })
    .end(JSON.stringify({ jsonrpc: "2.0", id, result }));

const TOOLS = [
  { name: "send_email", inputSchema: { type: "object" } },
  { name: "lookup", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } },
];

/** Stateless (2026-07-28): discovery and listing answered, every tools/call's stream broken. */
const modern: Route = (message, res) => {
  const stamp = {
    resultType: "complete",
    _meta: { "io.modelcontextprotocol/serverInfo": { name: "raw", version: "1" } },
  };
  if (message.method === "server/discover") {
    return json(res, message.id, {
      supportedVersions: ["2026-07-28"],
      capabilities: { tools: {} },
      ...stamp,
    });
  }
  if (message.method === "tools/list") return json(res, message.id, { tools: TOOLS, ...stamp });
  // The stream opens and ends before the answer, with no event id to resume from.
  res.writeHead(200, { "content-type": "text/event-stream" }).end(": working\n\n");
};

describe("a broken response stream", () => {
  it("statelessly fails a call of a tool that may have side effects with a retriable error, sending it once", async () => {
    const server = await rawServer(modern);
    const client = await McpClient.connect({ url: server.url });
    clients.push(client);
    expect(client.protocolVersion).toBe("2026-07-28");
    await client.listTools();
    const error = (await client.callTool("send_email", { to: "a@example.com" }).catch((e) => e)) as McpError;
    expect(error.code).toBe(ErrorCode.InternalError);
    expect(error.data).toMatchObject({ streamBroken: true, retriable: true });
    expect(error.message).toMatch(/send_email may have run, so it was not sent again/);
    expect(server.calls("send_email")).toHaveLength(1);
    // The connection is fine: a valid request afterwards succeeds.
    expect((await client.listTools()).map((t) => t.name)).toEqual(["send_email", "lookup"]);
  });

  it("statelessly sends a read-only tool's call again once, as a new request with a new id, never looping", async () => {
    const server = await rawServer(modern);
    const client = await McpClient.connect({ url: server.url });
    clients.push(client);
    await client.listTools();
    const error = (await client.callTool("lookup").catch((e) => e)) as McpError;
    expect(error.data).toMatchObject({ streamBroken: true, retriable: true });
    const calls = server.calls("lookup");
    expect(calls).toHaveLength(2);
    expect(calls[0]!.id).not.toBe(calls[1]!.id);
  });

  it("in a session, resumes with Last-Event-ID a bounded number of times, then fails", async () => {
    let resumes = 0;
    const server = await rawServer(
      (message, res) => {
        if (message.method === "initialize") {
          return json(res, message.id, {
            protocolVersion: "2025-11-25",
            capabilities: { tools: {} },
            serverInfo: { name: "raw", version: "1" },
          });
        }
        if (message.method === "tools/call") {
          res.writeHead(200, { "content-type": "text/event-stream", "mcp-session-id": "s" });
          return void res.end("id: s-1:0\nretry: 10\ndata: \n\n");
        }
        json(res, message.id, {});
      },
      (req, res) => {
        if (req.headers["last-event-id"] === undefined) return void res.writeHead(405).end();
        resumes++;
        // Resumed, and closed again at once with nothing.
        res.writeHead(200, { "content-type": "text/event-stream" }).end();
      },
    );
    const client = await McpClient.connect({
      url: server.url,
      protocolVersion: "2025-11-25",
      reconnect: { initialDelay: 10, maxDelay: 20, maxRetries: 3 },
    });
    clients.push(client);
    const error = (await client.callTool("x").catch((e) => e)) as McpError;
    expect(error.message).toMatch(/Gave up resuming the SSE stream of request \d+ after 3 failed attempts/);
    expect(resumes).toBe(4);
    await client.ping();
  });

  it("is cut by the request's timeout when the server sends headers and then nothing", async () => {
    let closed!: Promise<void>;
    const server = await rawServer((message, res) => {
      if (message.method === "initialize") {
        return json(res, message.id, {
          protocolVersion: "2025-11-25",
          capabilities: { tools: {} },
          serverInfo: { name: "raw", version: "1" },
        });
      }
      if (message.method === "tools/call") {
        closed = new Promise((resolve) => res.once("close", () => resolve()));
        return void res.writeHead(200, { "content-type": "text/event-stream" }).flushHeaders();
      }
      json(res, message.id, {});
    });
    const client = await McpClient.connect({ url: server.url, protocolVersion: "2025-11-25" });
    clients.push(client);
    const error = (await client.callTool("x", {}, { timeout: 300 }).catch((e) => e)) as McpError;
    expect(error.code).toBe(ErrorCode.RequestTimeout);
    await closed;
    await client.ping();
  });
});
