/**
 * Edges of the Streamable HTTP endpoint, on the wire: repeated single-valued headers, `initialize`
 * on an existing session, GET/DELETE of a server that speaks only the stateless revision,
 * numbers mirrored in `Mcp-Param-*` headers, and slow request bodies. Each refusal is checked
 * with raw bytes, a counter shows nothing ran, and a valid request afterwards still succeeds.
 */
import { connect as tcp } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { McpServer } from "../../src/server/index.js";
import type { HttpServerHandle } from "../../src/transports/http/server/index.js";
import { initializeRequest } from "../helpers/initialize.js";

const ACCEPT = "application/json, text/event-stream";
const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

let handle: HttpServerHandle | undefined;
let calls = 0;

afterEach(async () => {
  await handle?.close();
  handle = undefined;
});

async function serve(options: Parameters<McpServer["serveHttp"]>[0] = {}, versions?: string[]) {
  calls = 0;
  const server = new McpServer(
    { name: "edges", version: "1" },
    versions ? { supportedVersions: versions as never } : {},
  ).tool(
    "count",
    {
      input: {
        type: "object",
        properties: { n: { type: "integer", "x-mcp-header": "N" } },
        required: ["n"],
      } as never,
    },
    () => {
      calls++;
      return "counted";
    },
  );
  handle = await server.serveHttp(options);
  return handle;
}

/** One HTTP/1.1 exchange written as raw bytes; resolves with the status and body. */
function rawHttp(
  port: number,
  head: string[],
  body = "",
  { slow = false }: { slow?: boolean } = {},
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const socket = tcp(port, "127.0.0.1");
    let text = "";
    socket.setEncoding("utf8").on("data", (chunk: string) => {
      text += chunk;
    });
    socket.once("error", reject);
    socket.once("close", () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      resolve({ status, text: text.slice(text.indexOf("\r\n\r\n") + 4) });
    });
    const lines = [
      ...head,
      "Host: 127.0.0.1",
      "Connection: close",
      `Content-Length: ${Buffer.byteLength(body)}`,
    ];
    socket.write(`${lines.join("\r\n")}\r\n\r\n`);
    // A slow sender: one byte, then nothing.
    if (slow) socket.write(body.slice(0, 1));
    else socket.end(body);
  });
}

const post = (path: string, extra: string[] = []) => [
  `POST ${path} HTTP/1.1`,
  "Content-Type: application/json",
  `Accept: ${ACCEPT}`,
  ...extra,
];

const callBody = (n: unknown) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "count", arguments: { n }, _meta: META },
  });
const modernHeaders = (n: string) => [
  "MCP-Protocol-Version: 2026-07-28",
  "Mcp-Method: tools/call",
  "Mcp-Name: count",
  `Mcp-Param-N: ${n}`,
];

async function validCall(port: number) {
  const init = JSON.stringify(initializeRequest({ id: 9 }));
  const answer = await rawHttp(port, post("/mcp"), init);
  expect(answer.status).toBe(200);
  expect(answer.text).toContain('"protocolVersion":"2025-11-25"');
}

describe("the Streamable HTTP endpoint's edges", () => {
  it("refuses a repeated Content-Type, Mcp-Session-Id, MCP-Protocol-Version or Mcp-Method", async () => {
    const { port } = await serve();
    const init = JSON.stringify(initializeRequest());
    const type = await rawHttp(port, [...post("/mcp"), "Content-Type: text/plain"], init);
    expect(type.status).toBe(415);
    expect(JSON.parse(type.text).error.message).toBe(
      "Unsupported Media Type: the Content-Type header is repeated",
    );
    for (const [header, display] of [
      ["Mcp-Session-Id: a\r\nMcp-Session-Id: b", "Mcp-Session-Id"],
      ["MCP-Protocol-Version: 2025-11-25\r\nMCP-Protocol-Version: 2025-06-18", "MCP-Protocol-Version"],
      ["Mcp-Method: tools/list\r\nMcp-Method: tools/call", "Mcp-Method"],
    ] as const) {
      const answer = await rawHttp(port, post("/mcp", [header]), init);
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.text).error.message).toBe(`Bad Request: the ${display} header is repeated`);
    }
    await validCall(port);
  });

  it("refuses initialize sent on an existing session, and starts no new one", async () => {
    const { port, handler } = await serve();
    await validCall(port);
    expect(handler.sessionCount).toBe(1);
    const init = JSON.stringify(initializeRequest({ id: 2 }));
    const again = await rawHttp(port, post("/mcp", ["Mcp-Session-Id: anything"]), init);
    expect(again.status).toBe(400);
    expect(JSON.parse(again.text)).toEqual({
      jsonrpc: "2.0",
      id: 2,
      error: {
        code: -32600,
        message: "Bad Request: initialize starts a session; it cannot be sent on one (drop Mcp-Session-Id)",
      },
    });
    expect(handler.sessionCount).toBe(1);
  });

  it("answers GET and DELETE with 405 when it speaks only 2026-07-28", async () => {
    const { port } = await serve({}, ["2026-07-28"]);
    for (const method of ["GET", "DELETE"]) {
      const answer = await rawHttp(port, [`${method} /mcp HTTP/1.1`, "Accept: text/event-stream"]);
      expect(answer.status).toBe(405);
      expect(JSON.parse(answer.text).error.message).toBe("Method not allowed: this server keeps no sessions");
    }
  });

  it("compares a number mirrored in Mcp-Param-* as a number", async () => {
    const { port } = await serve();
    const ok = await rawHttp(port, post("/mcp", modernHeaders("42.0")), callBody(42));
    expect(ok.status, ok.text).toBe(200);
    expect(calls).toBe(1);
    const wrong = await rawHttp(port, post("/mcp", modernHeaders("43")), callBody(42));
    expect(wrong.status, wrong.text).toBe(400);
    expect(JSON.parse(wrong.text).error.code).toBe(-32020);
    expect(calls).toBe(1);
  });

  it("echoes no more than a short, inert piece of a body value that does not match its header", async () => {
    const { port } = await serve();
    const name = `count\u001b]0;pwned\u0007${"x".repeat(1_000_000)}`;
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name, arguments: { n: 1 }, _meta: META },
    });
    const wrong = await rawHttp(port, post("/mcp", modernHeaders("1")), body);
    expect(wrong.status).toBe(400);
    const { error } = JSON.parse(wrong.text);
    expect(error.code).toBe(-32020);
    expect(error.message).toMatch(
      /^Header mismatch: Mcp-Name header value 'count' does not match body value 'count\\x1b\]0;pwned\\x07x+… \(\d+ more characters\)'$/,
    );
    expect(error.message.length).toBeLessThan(400);
    expect(calls).toBe(0);
  });

  it("answers a body that does not arrive in time with 408 and closes its connection", async () => {
    const { port } = await serve({ bodyTimeout: 300 });
    const init = JSON.stringify(initializeRequest());
    const slow = await rawHttp(port, post("/mcp"), init, { slow: true });
    expect(slow.status).toBe(408);
    expect(JSON.parse(slow.text).error.message).toBe(
      "Request Timeout: Request body not received within 300 ms",
    );
    await validCall(port);
  });

  it("answers an initialize over maxSessions with 503, and keeps serving the open session", async () => {
    const { port, handler } = await serve({ maxSessions: 1 });
    await validCall(port);
    const init = JSON.stringify(initializeRequest({ id: 3 }));
    const full = await rawHttp(port, post("/mcp"), init);
    expect(full.status).toBe(503);
    expect(JSON.parse(full.text).error.message).toBe(
      "Service Unavailable: 1 sessions are open, the most this server allows (maxSessions)",
    );
    expect(handler.sessionCount).toBe(1);
  });
});
