/**
 * What our Streamable HTTP server refuses, with raw `node:http` requests against `serveHttp()` on
 * 127.0.0.1: each refusal's status and JSON-RPC error body (no id: none could be read), and that
 * none of them disturbs the open session of an official SDK v1 client on the same server.
 */
import { type IncomingHttpHeaders, type IncomingMessage, request } from "node:http";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import type { McpServer } from "../../src/server/index.js";
import { createEverythingServer } from "../../src/servers/everything/index.js";
import type { HttpServerHandle } from "../../src/transports/http/server/index.js";
import { tap } from "../helpers/http-sdk-clients.js";
import { MessageLog, SpecChecker } from "../helpers/spec-schema.js";
import { until } from "../helpers/until.js";

const VERSION = "2025-11-25";
const MAX_BODY = 1024;
const ACCEPT = "application/json, text/event-stream";

interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/**
 * One request over `node:http` (so `Host` can be anything). A `string[]` body is sent chunked, without
 * `Content-Length`. An event stream (none is expected here) is read for 300 ms, then dropped.
 */
function raw(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: string | string[],
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, agent: false }, (res) => {
      let text = "";
      res.setEncoding("utf8").on("data", (chunk: string) => {
        text += chunk;
      });
      const done = () => resolve({ status: res.statusCode!, headers: res.headers, text });
      res.once("end", done).once("close", done);
      if (res.headers["content-type"] === "text/event-stream") setTimeout(() => res.destroy(), 300);
    });
    req.once("error", reject);
    if (Array.isArray(body)) for (const chunk of body) req.write(chunk);
    req.end(typeof body === "string" ? body : undefined);
  });
}

/**
 * Checks a refusal: its status and a JSON-RPC error body, with `"id": null` when it answers a body
 * whose id could not be read (`unread`), else without id.
 */
function expectRefusal(
  response: RawResponse,
  status: number,
  code: number,
  message: RegExp,
  unread = false,
): void {
  expect(response.status).toBe(status);
  expect(response.headers["content-type"]).toBe("application/json");
  const body = JSON.parse(response.text);
  const error = { code, message: expect.stringMatching(message) };
  expect(body).toEqual(unread ? { jsonrpc: "2.0", id: null, error } : { jsonrpc: "2.0", error });
  // 2025-11-25 made the id of an error response optional, for requests whose id could not be read;
  // JSON-RPC 2.0 §5 writes it as null there, which MCP's schema does not type (the conformance
  // referee allows it for malformed input): the rest of the body must validate.
  const { id: _null, ...rest } = body;
  expect(new SpecChecker(VERSION).check(unread ? rest : body, "server")).toEqual([]);
}

let mcp: McpServer;
let handle: HttpServerHandle;
let client: Client;
let transport: StreamableHTTPClientTransport;
let log: MessageLog;
/** The SDK client's session. */
let session: string;
/** GET requests that reached the server. */
let gets: number;

beforeEach(async () => {
  mcp = createEverythingServer();
  handle = await mcp.serveHttp({ maxBodySize: MAX_BODY });
  gets = 0;
  handle.server.on("request", (req: IncomingMessage) => {
    if (req.method === "GET") gets += 1;
  });
  log = new MessageLog();
  transport = tap(new StreamableHTTPClientTransport(new URL(handle.url)), log);
  client = new Client({ name: "sdk-v1", version: "0.0.1" });
  await client.connect(transport);
  session = transport.sessionId!;
});

afterEach(async () => {
  await client.close();
  await handle.close();
});

/** Headers of a well-formed POST on the SDK client's session. */
const post = (extra: Record<string, string> = {}) => ({
  "content-type": "application/json",
  accept: ACCEPT,
  "mcp-session-id": session,
  "mcp-protocol-version": VERSION,
  ...extra,
});
const LIST = JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/list" });
const BIG = JSON.stringify({
  jsonrpc: "2.0",
  id: 8,
  method: "tools/list",
  params: { pad: "x".repeat(MAX_BODY) },
});
const { ConnectionClosed, InvalidRequest, ParseError } = ErrorCode;

interface Case {
  name: string;
  method?: string;
  headers: () => Record<string, string>;
  body?: string | string[];
  status: number;
  code: number;
  message: RegExp;
  /** The body's id could not be read: the answer's id is null. */
  unread?: boolean;
}

const CASES: Case[] = [
  {
    name: "a foreign Host (DNS rebinding)",
    headers: () => post({ host: "evil.example:80" }),
    body: LIST,
    status: 403,
    code: ConnectionClosed,
    message: /^Forbidden: Host "evil\.example:80" is not allowed/,
  },
  {
    name: "a foreign Host on GET",
    method: "GET",
    headers: () => ({ accept: "text/event-stream", "mcp-session-id": session, host: "rebind.example" }),
    status: 403,
    code: ConnectionClosed,
    message: /^Forbidden: Host/,
  },
  {
    name: "a foreign Origin",
    headers: () => post({ origin: "https://evil.example" }),
    body: LIST,
    status: 403,
    code: ConnectionClosed,
    message: /^Forbidden: Origin "https:\/\/evil\.example" is not allowed/,
  },
  {
    name: "an Origin that only starts like localhost",
    headers: () => post({ origin: "http://localhost.evil.example" }),
    body: LIST,
    status: 403,
    code: ConnectionClosed,
    message: /^Forbidden: Origin/,
  },
  {
    name: "the opaque Origin null",
    headers: () => post({ origin: "null" }),
    body: LIST,
    status: 403,
    code: ConnectionClosed,
    message: /^Forbidden: Origin "null"/,
  },
  {
    name: "a DELETE of the live session from a foreign Origin",
    method: "DELETE",
    headers: () => ({ "mcp-session-id": session, origin: "https://evil.example" }),
    status: 403,
    code: ConnectionClosed,
    message: /^Forbidden: Origin/,
  },
  {
    name: "an Accept without text/event-stream",
    headers: () => post({ accept: "application/json" }),
    body: LIST,
    status: 406,
    code: ConnectionClosed,
    message: /^Not Acceptable/,
  },
  {
    name: "an Accept without application/json",
    headers: () => post({ accept: "text/event-stream" }),
    body: LIST,
    status: 406,
    code: ConnectionClosed,
    message: /^Not Acceptable/,
  },
  {
    name: "a GET that does not accept text/event-stream",
    method: "GET",
    headers: () => ({ accept: "application/json", "mcp-session-id": session }),
    status: 406,
    code: ConnectionClosed,
    message: /^Not Acceptable/,
  },
  {
    name: "a Content-Type other than application/json",
    headers: () => post({ "content-type": "text/plain" }),
    body: LIST,
    status: 415,
    code: ConnectionClosed,
    message: /^Unsupported Media Type/,
  },
  {
    name: "a body over maxBodySize (Content-Length)",
    headers: () => post(),
    body: BIG,
    status: 413,
    code: InvalidRequest,
    message: /^Payload Too Large/,
  },
  {
    name: "a chunked body over maxBodySize",
    headers: () => post(),
    body: [BIG.slice(0, 600), BIG.slice(600)],
    status: 413,
    code: InvalidRequest,
    message: /^Payload Too Large/,
  },
  {
    name: "an unknown session",
    headers: () => post({ "mcp-session-id": "no-such-session" }),
    body: LIST,
    status: 404,
    code: ConnectionClosed,
    message: /^Session not found$/,
  },
  {
    name: "a GET on an unknown session",
    method: "GET",
    headers: () => ({ accept: "text/event-stream", "mcp-session-id": "no-such-session" }),
    status: 404,
    code: ConnectionClosed,
    message: /^Session not found$/,
  },
  {
    name: "a DELETE of an unknown session",
    method: "DELETE",
    headers: () => ({ "mcp-session-id": "no-such-session" }),
    status: 404,
    code: ConnectionClosed,
    message: /^Session not found$/,
  },
  {
    name: "a non-initialize POST without a session id",
    headers: () => {
      const { "mcp-session-id": _, ...headers } = post();
      return headers;
    },
    body: LIST,
    status: 400,
    code: ConnectionClosed,
    message: /Mcp-Session-Id header is required/,
  },
  {
    name: "invalid JSON",
    headers: () => post(),
    body: '{"jsonrpc": "2.0", "id": 1, "method": ',
    status: 400,
    code: ParseError,
    message: /^Parse error/,
    unread: true,
  },
  {
    name: "a JSON-RPC batch",
    headers: () => post(),
    body: `[${LIST}]`,
    status: 400,
    code: InvalidRequest,
    message: /batches are not accepted in protocol version 2025-11-25/,
    unread: true,
  },
  {
    name: "an unsupported MCP-Protocol-Version",
    headers: () => post({ "mcp-protocol-version": "1999-01-01" }),
    body: LIST,
    status: 400,
    code: InvalidRequest,
    message: /unsupported MCP-Protocol-Version 1999-01-01/,
  },
  {
    name: "an unsupported MCP-Protocol-Version on GET",
    method: "GET",
    headers: () => ({
      accept: "text/event-stream",
      "mcp-session-id": session,
      "mcp-protocol-version": "2.0",
    }),
    status: 400,
    code: InvalidRequest,
    message: /unsupported MCP-Protocol-Version/,
  },
];

describe("refusals", () => {
  it.each(CASES)("refuses $name and the SDK client's session goes on", async (c) => {
    const response = await raw(handle.url, c.method ?? "POST", c.headers(), c.body);
    expectRefusal(response, c.status, c.code, c.message, c.unread);
    expect(handle.handler.sessionCount).toBe(1);
    const result = await client.callTool({ name: "test_simple_text" });
    expect(result.isError).toBeFalsy();
    expect(log.problems(VERSION)).toEqual([]);
  });

  it("answers an unknown method with 405 and Allow", async () => {
    const response = await raw(handle.url, "PUT", post(), LIST);
    expectRefusal(response, 405, ConnectionClosed, /^Method not allowed: PUT/);
    expect(response.headers.allow).toBe("GET, POST, DELETE");
  });

  it("answers an invalid message with the id it could read", async () => {
    const response = await raw(
      handle.url,
      "POST",
      post(),
      JSON.stringify({ jsonrpc: "1.0", id: 5, method: "x" }),
    );
    expect(response.status).toBe(400);
    expect(JSON.parse(response.text)).toMatchObject({
      jsonrpc: "2.0",
      id: 5,
      error: { code: InvalidRequest },
    });
  });

  it("accepts localhost origins and hosts", async () => {
    const hosts = ["localhost", "127.0.0.1", "[::1]"].map((name) => `${name}:${handle.port}`);
    const origins = ["http://localhost:5173", "http://127.0.0.1", "http://[::1]:8080"];
    for (const [i, origin] of origins.entries()) {
      const response = await raw(handle.url, "POST", post({ origin, host: hosts[i]! }), LIST);
      expect(response.status, origin).toBe(200);
      expect(JSON.parse(response.text)).toMatchObject({ id: 7, result: { tools: expect.any(Array) } });
    }
  });

  it("refuses a second GET stream with 409 and keeps the SDK client's", async () => {
    await until(() => gets > 0, { what: "the SDK client's GET stream" });
    const headers = {
      accept: "text/event-stream",
      "mcp-session-id": session,
      "mcp-protocol-version": VERSION,
    };
    expectRefusal(await raw(handle.url, "GET", headers), 409, ConnectionClosed, /^Conflict/);
    const logged: unknown[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logged.push(n.params.data));
    mcp.log("info", "still streaming");
    await until(() => logged.length > 0, { what: "the log message on the SDK client's stream" });
    expect(logged).toEqual(["still streaming"]);
    expect(gets).toBe(2);
  });
});
