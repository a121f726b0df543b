/**
 * Our HTTP server beyond the stateful session: stateless mode (SDK v1), the web handler `server.fetch`
 * (raw `Request`s) and the legacy HTTP+SSE transport (SDK v1 `SSEClientTransport`), all on 127.0.0.1.
 * Every message either side sends is checked against the negotiated revision's schema.
 */
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport as HttpV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, describe, expect, it } from "vitest";
import { McpServer } from "../../src/server/index.js";
import { createEverythingServer } from "../../src/servers/everything/index.js";
import {
  CLIENT_INFO,
  closeAfterEach,
  connectV1,
  type Message,
  type Progress,
  parseSse,
  serve,
} from "../helpers/http-sdk-clients.js";
import { initializeRequest } from "../helpers/initialize.js";
import { MessageLog, SpecChecker } from "../helpers/spec-schema.js";

const VERSION = "2025-11-25";

closeAfterEach();
const servers: McpServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

describe("sessionless mode", () => {
  it("serves the SDK v1 client without a session id, with SSE progress; GET answers 405", async () => {
    const { handle, requests } = await serve(createEverythingServer(), { sessionless: true });
    const log = new MessageLog();
    const transport = new HttpV1(new URL(handle.url));
    const client = await connectV1(transport, log);
    expect(transport.sessionId).toBeUndefined();
    const seen: Progress[] = [];
    const result = await client.call("test_tool_with_progress", (p) => void seen.push(p));
    expect(result.content[0]?.text).toMatch(/^Done, reported progress to /);
    expect(seen.length).toBeGreaterThan(0);
    expect((await client.call("test_simple_text")).isError).toBeFalsy();
    expect(requests.every((r) => r.headers["mcp-session-id"] === undefined)).toBe(true);
    expect(handle.handler.sessionCount).toBe(0);

    const response = await fetch(handle.url, { headers: { accept: "text/event-stream" } });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST");
    expect(await response.json()).toEqual({
      jsonrpc: "2.0",
      error: { code: expect.any(Number), message: expect.stringMatching(/^Method not allowed/) },
    });
    expect(log.problems(VERSION)).toEqual([]);
  });
});

describe("responseMode json", () => {
  it("answers every POST with JSON; a call's progress goes on the GET stream (SDK v1)", async () => {
    const { handle } = await serve(createEverythingServer(), { responseMode: "json" });
    const types: (string | null)[] = [];
    const log = new MessageLog();
    const transport = new HttpV1(new URL(handle.url), {
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        if (init?.method === "POST") types.push(response.headers.get("content-type"));
        return response;
      },
    });
    const client = await connectV1(transport, log);
    const seen: Progress[] = [];
    const result = await client.call("test_tool_with_progress", (p) => void seen.push(p));
    expect(result.content[0]?.text).toMatch(/^Done, reported progress to /);
    expect(seen.length).toBeGreaterThan(0);
    // The answers to initialize and tools/call, and 202s (no body) to the notifications.
    expect(types.filter((type) => type?.startsWith("application/json"))).toHaveLength(2);
    for (const type of types) expect(type ?? "").not.toMatch(/event-stream/);
    expect(log.problems(VERSION)).toEqual([]);
  });
});

describe("the web handler server.fetch", () => {
  it("does the handshake and a tool call with raw Requests, reading an SSE body to its end", async () => {
    const web = new McpServer({ name: "web", version: "1.0.0" }, { http: { retryInterval: 500 } });
    servers.push(web);
    web.tool("count", { description: "Counts to three with progress" }, async (_args, ctx) => {
      for (const n of [1, 2, 3]) ctx.progress(n, 3);
      return "counted";
    });
    const checker = new SpecChecker(VERSION);
    const headers: Record<string, string> = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    };
    const post = async (message: Message) => {
      expect(checker.check(message, "client")).toEqual([]);
      return web.fetch(
        new Request("http://localhost/mcp", { method: "POST", headers, body: JSON.stringify(message) }),
      );
    };

    const init = await post(initializeRequest({ protocolVersion: VERSION, clientInfo: CLIENT_INFO }));
    expect(init.status).toBe(200);
    expect(init.headers.get("content-type")).toBe("application/json");
    const sessionId = init.headers.get("mcp-session-id")!;
    expect(sessionId).toMatch(/^[\x21-\x7e]+$/);
    const initResult = await init.json();
    expect(initResult).toMatchObject({
      id: 1,
      result: { protocolVersion: VERSION, serverInfo: { name: "web" } },
    });
    expect(checker.check(initResult, "server")).toEqual([]);
    headers["mcp-session-id"] = sessionId;
    headers["mcp-protocol-version"] = VERSION;

    const initialized = await post({ jsonrpc: "2.0", method: "notifications/initialized" });
    expect(initialized.status).toBe(202);
    expect(initialized.body).toBeNull();

    const call = await post({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "count", arguments: {}, _meta: { progressToken: "p" } },
    });
    expect(call.status).toBe(200);
    expect(call.headers.get("content-type")).toBe("text/event-stream");
    expect(call.headers.get("mcp-session-id")).toBe(sessionId);
    const events = parseSse(await call.text()); // resolves only once the server ends the stream
    expect(events[0]).toMatchObject({ retry: 500 });
    expect(events[0]?.data).toBeUndefined();
    const messages = events.flatMap((e) => (e.data ? [e.data] : []));
    expect(messages.map((m) => m.params?.progress ?? m.result)).toEqual([
      1,
      2,
      3,
      { content: [{ type: "text", text: "counted" }] },
    ]);
    for (const message of messages) expect(checker.check(message, "server")).toEqual([]);
    expect(events.every((e) => e.id?.startsWith(`${sessionId}-`))).toBe(true);

    const deleted = await web.fetch(new Request("http://localhost/mcp", { method: "DELETE", headers }));
    expect(deleted.status).toBe(200);
    const after = await post({ jsonrpc: "2.0", id: 3, method: "tools/list" });
    expect(after.status).toBe(404);
  });

  it("answers a foreign Origin with 403 when given allowedOrigins", async () => {
    const web = new McpServer({ name: "web", version: "1.0.0" }, { http: { allowedOrigins: ["localhost"] } });
    servers.push(web);
    const request = (origin: string) =>
      web.fetch(
        new Request("http://localhost/mcp", {
          method: "POST",
          headers: {
            origin,
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
          },
          body: JSON.stringify(initializeRequest({ protocolVersion: VERSION, clientInfo: CLIENT_INFO })),
        }),
      );
    const foreign = await request("https://evil.example");
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toEqual({
      jsonrpc: "2.0",
      error: { code: expect.any(Number), message: expect.stringMatching(/^Forbidden: Origin/) },
    });
    expect((await request("http://localhost:5173")).status).toBe(200);
  });
});

describe("legacy HTTP+SSE", () => {
  it("serves the SDK v1 SSEClientTransport at /sse beside /mcp", async () => {
    const { handle } = await serve(createEverythingServer(), { legacySse: true });
    const log = new MessageLog();
    const base = handle.url.replace(/\/mcp$/, "");
    const client = await connectV1(new SSEClientTransport(new URL(`${base}/sse`)), log);
    const result = await client.call("test_simple_text");
    expect(result.isError).toBeFalsy();
    expect(result.content[0]).toMatchObject({ type: "text" });
    const seen: Progress[] = [];
    const progress = await client.call("test_tool_with_progress", (p) => void seen.push(p));
    expect(progress.content[0]?.text).toMatch(/^Done, reported progress to /);
    expect(seen.length).toBeGreaterThan(0);
    const negotiated = (log.entries[1]!.message as Message).result.protocolVersion;
    expect(negotiated).toBe(VERSION);
    expect(log.problems(negotiated)).toEqual([]);
  });

  it("refuses a foreign Origin and an unknown session", async () => {
    const { handle } = await serve(createEverythingServer(), { legacySse: true });
    const base = handle.url.replace(/\/mcp$/, "");
    const foreign = await fetch(`${base}/sse`, { headers: { origin: "https://evil.example" } });
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toMatchObject({ jsonrpc: "2.0", error: { message: /^Forbidden: Origin/ } });
    const unknown = await fetch(`${base}/messages?sessionId=nope`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
    });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({
      jsonrpc: "2.0",
      error: { code: expect.any(Number), message: "Session not found" },
    });
  });
});
