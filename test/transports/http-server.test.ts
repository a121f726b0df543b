/**
 * Our Streamable HTTP server (`McpServer.serveHttp`, the everything fixture) against the official SDK
 * clients, v1 (`@modelcontextprotocol/sdk`) and v2 (`@modelcontextprotocol/client`), over 127.0.0.1:
 * handshake, tools, progress on a POST's SSE stream, notifications on the GET stream, logging,
 * server→client requests and session termination. Every message either side sends is checked
 * against the negotiated revision's JSON Schema.
 */
import type { IncomingMessage } from "node:http";
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from "@modelcontextprotocol/client";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as HttpV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import type { McpServer } from "../../src/server/index.js";
import { createEverythingServer } from "../../src/servers/everything/index.js";
import { WATCHED_URI } from "../../src/servers/everything/resources.js";
import type { HttpServerHandle } from "../../src/transports/http/server/index.js";
import {
  type CallResult,
  CLIENT_INFO,
  clients,
  closeAfterEach,
  handles,
  type Message,
  type Progress,
  tap,
} from "../helpers/http-sdk-clients.js";
import { MessageLog } from "../helpers/spec-schema.js";
import { until } from "../helpers/until.js";

const CAPABILITIES = { sampling: {}, elicitation: {} };
const REPLY = {
  role: "assistant" as const,
  content: { type: "text" as const, text: "Paris" },
  model: "test-model",
};
const ANSWER = { action: "accept" as const, content: { username: "ada", email: "ada@example.com" } };

/** What the tests need of either SDK's client and Streamable HTTP transport. */
interface Connection {
  sessionId(): string | undefined;
  listTools(): Promise<{ tools: { name: string }[] }>;
  call(name: string, args?: Record<string, unknown>, onprogress?: (p: Progress) => void): Promise<CallResult>;
  subscribe(uri: string): Promise<unknown>;
  /** Registers a notification handler on the SDK client. */
  on(
    method: "resources/updated" | "tools/list_changed" | "message",
    handler: (params: Message) => void,
  ): void;
  terminate(): Promise<void>;
  close(): Promise<void>;
}

const SDKS: { name: string; connect(url: string, log: MessageLog): Promise<Connection> }[] = [
  {
    name: "SDK v1 (@modelcontextprotocol/sdk)",
    async connect(url, log) {
      const transport = tap(new HttpV1(new URL(url)), log);
      const client = new ClientV1(CLIENT_INFO, { capabilities: CAPABILITIES });
      client.setRequestHandler(CreateMessageRequestSchema, () => REPLY);
      client.setRequestHandler(ElicitRequestSchema, () => ANSWER);
      await client.connect(transport);
      const schemas = {
        "resources/updated": ResourceUpdatedNotificationSchema,
        "tools/list_changed": ToolListChangedNotificationSchema,
        message: LoggingMessageNotificationSchema,
      };
      return {
        sessionId: () => transport.sessionId,
        listTools: () => client.listTools(),
        call: async (name, args, onprogress) =>
          (await client.callTool({ name, arguments: args }, undefined, { onprogress })) as CallResult,
        subscribe: (uri) => client.subscribeResource({ uri }),
        on: (method, handler) =>
          client.setNotificationHandler(schemas[method], (n: Message) => handler(n.params ?? {})),
        terminate: () => transport.terminateSession(),
        close: () => client.close(),
      };
    },
  },
  {
    name: "SDK v2 (@modelcontextprotocol/client)",
    async connect(url, log) {
      const transport = tap(new HttpV2(new URL(url)), log);
      const client = new ClientV2(CLIENT_INFO, { capabilities: CAPABILITIES });
      client.setRequestHandler("sampling/createMessage", () => REPLY);
      client.setRequestHandler("elicitation/create", () => ANSWER);
      await client.connect(transport);
      return {
        sessionId: () => transport.sessionId,
        listTools: () => client.listTools(),
        call: async (name, args, onprogress) =>
          (await client.callTool({ name, arguments: args }, { onprogress })) as CallResult,
        subscribe: (uri) => client.subscribeResource({ uri }),
        on: (method, handler) =>
          client.setNotificationHandler(`notifications/${method}`, (n: { params?: object }) =>
            handler(n.params ?? {}),
          ),
        terminate: () => transport.terminateSession(),
        close: () => client.close(),
      };
    },
  },
];

closeAfterEach();

describe.each(SDKS)("$name against serveHttp()", (sdk) => {
  let server: McpServer;
  let handle: HttpServerHandle;
  let log: MessageLog;
  /** GET requests that reached the server, in order. */
  let gets: IncomingMessage[];

  async function connect(): Promise<Connection> {
    server = createEverythingServer();
    handle = await server.serveHttp();
    handles.push(handle);
    gets = [];
    handle.server.on("request", (req: IncomingMessage) => {
      if (req.method === "GET") gets.push(req);
    });
    log = new MessageLog();
    const connection = await sdk.connect(handle.url, log);
    clients.push(connection);
    return connection;
  }

  const sentBy = (side: "client" | "server") =>
    log.entries.filter((e) => e.direction === side).map((e) => e.message as Message);
  const negotiated = () => sentBy("server").find((m) => m.result?.protocolVersion)!.result.protocolVersion;
  /** The SDK opens its GET stream after `notifications/initialized`; our handler attaches it synchronously. */
  const getStreamOpen = () => until(() => gets.length > 0, { what: "the SDK's GET stream" });

  it("hands out a session id of visible ASCII and lists and calls tools", async () => {
    const conn = await connect();
    expect(handle.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(conn.sessionId()).toMatch(/^[\x21-\x7e]+$/);
    expect(sentBy("server")[0]).toMatchObject({ result: { serverInfo: { name: "mcpkit-everything" } } });
    const { tools } = await conn.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(["test_simple_text", "test_sampling"]));
    const result = await conn.call("test_simple_text", {});
    expect(result.isError).toBeFalsy();
    expect(result.content[0]).toMatchObject({ type: "text" });
    expect(log.problems(negotiated())).toEqual([]);
  });

  it("returns a tool's failure as an isError result", async () => {
    const conn = await connect();
    const result = await conn.call("test_error_handling", {});
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toBe("This tool intentionally returns an error for testing");
    expect(log.problems(negotiated())).toEqual([]);
  });

  it("streams progress over the POST's SSE response before the result", async () => {
    const conn = await connect();
    const seen: [number, number | undefined][] = [];
    let beforeResult = -1;
    const result = await conn
      .call("test_tool_with_progress", {}, (p) => void seen.push([p.progress, p.total]))
      .then((r) => {
        beforeResult = seen.length;
        return r;
      });
    expect(result.content[0]?.text).toMatch(/^Done, reported progress to /);
    const sent = sentBy("server")
      .filter((m) => m.method === "notifications/progress")
      .map((m) => [m.params.progress, m.params.total]);
    expect(sent).toEqual([
      [0, 100],
      [50, 100],
      [100, 100],
    ]);
    // The SDKs dispatch a notification read in the same chunk as the response after it: a prefix is certain.
    expect(beforeResult).toBeGreaterThan(0);
    expect(seen).toEqual(sent.slice(0, seen.length));
    expect(log.problems(negotiated())).toEqual([]);
  });

  it("delivers resources/updated and tools/list_changed on the GET stream", async () => {
    const conn = await connect();
    const updated: Message[] = [];
    const changed: Message[] = [];
    conn.on("resources/updated", (params) => updated.push(params));
    conn.on("tools/list_changed", (params) => changed.push(params));
    await conn.subscribe(WATCHED_URI);
    await getStreamOpen();
    server.resourceUpdated(WATCHED_URI);
    await until(() => updated.length === 1, { what: "resources/updated" });
    expect(updated).toEqual([{ uri: WATCHED_URI }]);
    server.tool("late", { description: "added after connect" }, () => "late");
    await until(() => changed.length === 1, { what: "tools/list_changed" });
    expect((await conn.listTools()).tools.map((t) => t.name)).toContain("late");
    expect(await conn.call("late", {})).toMatchObject({ content: [{ type: "text", text: "late" }] });
    expect(gets).toHaveLength(1);
    expect(log.problems(negotiated())).toEqual([]);
  });

  it("sends a tool's log messages on its stream and server.log() on the GET stream", async () => {
    const conn = await connect();
    const logged: Message[] = [];
    conn.on("message", (params) => logged.push(params));
    const result = await conn.call("test_tool_with_logging", {});
    expect(result.content[0]?.text).toBe("Tool with logging executed successfully");
    await until(() => logged.length >= 3, { what: "three log messages" });
    expect(logged.map((p) => p.data)).toEqual([
      "Tool execution started",
      "Tool processing data",
      "Tool execution completed",
    ]);
    await getStreamOpen();
    server.log("warning", { note: "broadcast" }, "test");
    await until(() => logged.length === 4, { what: "the broadcast log message" });
    expect(logged[3]).toEqual({ level: "warning", logger: "test", data: { note: "broadcast" } });
    expect(log.problems(negotiated())).toEqual([]);
  });

  it("sends sampling and elicitation requests the SDK client answers", async () => {
    const conn = await connect();
    const sampled = await conn.call("test_sampling", { prompt: "Capital of France?" });
    expect(sampled.content[0]?.text).toBe("LLM response (test-model): Paris");
    const elicited = await conn.call("test_elicitation", { message: "Who are you?" });
    expect(elicited.content[0]?.text).toBe(`Elicitation accepted: content=${JSON.stringify(ANSWER.content)}`);
    const methods = sentBy("server").flatMap((m) => (m.method && m.id !== undefined ? [m.method] : []));
    expect(methods).toEqual(["sampling/createMessage", "elicitation/create"]);
    expect(log.problems(negotiated())).toEqual([]);
  });

  it("ends the session on DELETE; the session id then gets 404", async () => {
    const conn = await connect();
    const sessionId = conn.sessionId()!;
    expect(handle.handler.sessionCount).toBe(1);
    await conn.terminate();
    expect(handle.handler.sessionCount).toBe(0);
    const response = await fetch(handle.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-session-id": sessionId,
        "mcp-protocol-version": negotiated(),
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 99, method: "tools/list" }),
    });
    expect(response.status).toBe(404);
    const body = await response.json();
    expect(body).toEqual({
      jsonrpc: "2.0",
      error: { code: expect.any(Number), message: "Session not found" },
    });
    expect(log.problems(negotiated())).toEqual([]);
  });
});

describe.each(["2025-03-26", "2025-06-18"])("SDK v2 at %s", (revision) => {
  it("negotiates it, sends it as MCP-Protocol-Version and gets only messages of the revision", async () => {
    const handle = await createEverythingServer().serveHttp();
    handles.push(handle);
    const versions: (string | undefined)[] = [];
    handle.server.on("request", (req: IncomingMessage) => {
      versions.push(req.headers["mcp-protocol-version"] as string | undefined);
    });
    const log = new MessageLog();
    const client = new ClientV2(CLIENT_INFO, { supportedProtocolVersions: [revision] });
    await client.connect(tap(new HttpV2(new URL(handle.url)), log));
    clients.push(client);
    expect(client.getNegotiatedProtocolVersion()).toBe(revision);
    const seen: number[] = [];
    const onprogress = (p: Progress) => void seen.push(p.progress);
    const result = await client.callTool({ name: "test_tool_with_progress", arguments: {} }, { onprogress });
    expect(result.content[0]).toMatchObject({ type: "text", text: expect.stringMatching(/^Done/) });
    expect(seen.length).toBeGreaterThan(0);
    await client.callTool({ name: "test_tool_with_logging", arguments: {} });
    expect(versions[0]).toBeUndefined(); // initialize
    expect(new Set(versions.slice(1))).toEqual(new Set([revision]));
    expect(log.problems(revision)).toEqual([]);
  });
});
