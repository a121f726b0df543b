/**
 * What a client may POST that no client should, as raw request bodies to `serveHttp()`: each is
 * answered with the right status and JSON-RPC error, runs nothing it should not, and the session
 * keeps serving.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { McpServer } from "../../src/server/index.js";
import type { HttpServerHandle } from "../../src/transports/http/server/index.js";
import { INITIALIZED, initializeRequest } from "../helpers/initialize.js";

const ANY = { type: "object" } as const;
const done = (structuredContent: Record<string, unknown>) => ({
  content: [{ type: "text" as const, text: "done" }],
  structuredContent,
});

let calls = 0;
let http: HttpServerHandle;
beforeEach(async () => {
  calls = 0;
  const server = new McpServer({ name: "bad-input", version: "1.0.0" })
    .tool("echo", { description: "Echoes x", input: ANY }, (args) => done({ x: args.x }))
    .tool("cycle", { description: "A cycle", input: ANY }, () => {
      const value: Record<string, unknown> = { name: "loop" };
      value.self = value;
      return done(value);
    })
    .tool("bigint", { description: "A BigInt", input: ANY }, async () => done({ n: 10n ** 30n }))
    .tool("count", { description: "Counts its calls", input: ANY }, () => String(++calls));
  http = await server.serveHttp({ port: 0 });
});
afterEach(() => http.close());

interface Answer {
  status: number;
  body: Record<string, unknown> | Record<string, unknown>[] | undefined;
  session: string | undefined;
}

/** POSTs `body` exactly as given; reads a JSON answer, or the first events of a stream. */
async function post(body: string, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(http.url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...headers,
    },
    body,
  });
  const text = await response.text();
  const type = response.headers.get("content-type") ?? "";
  let parsed: Answer["body"];
  if (type.startsWith("text/event-stream")) {
    const events = [...text.matchAll(/^data: (.+)$/gm)].map((m) => JSON.parse(m[1]!));
    parsed = events.length === 1 ? events[0] : events;
  } else if (text !== "") {
    parsed = JSON.parse(text);
  }
  return {
    status: response.status,
    body: parsed,
    session: response.headers.get("mcp-session-id") ?? undefined,
  };
}

/** A 2025-11-25 session, initialized. */
async function session(version = "2025-11-25"): Promise<Record<string, string>> {
  const init = await post(JSON.stringify(initializeRequest({ id: 0, protocolVersion: version })));
  const headers = { "mcp-session-id": init.session!, "mcp-protocol-version": version };
  await post(JSON.stringify(INITIALIZED), headers);
  return headers;
}

const call = (id: unknown, name: string, args: object = {}) =>
  `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"tools/call","params":{"name":"${name}","arguments":${JSON.stringify(args)}}}`;

const MODERN = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
};
const modernCall = (id: unknown, name: string, args = "{}") =>
  `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"tools/call","params":{"name":"${name}","arguments":${args},"_meta":${JSON.stringify(MODERN)}}}`;
const modernHeaders = (name: string) => ({
  "mcp-protocol-version": "2026-07-28",
  "mcp-method": "tools/call",
  "mcp-name": name,
});

const nested = (depth: number) => `${"[".repeat(depth)}1${"]".repeat(depth)}`;

describe("an HTTP server given bad input", () => {
  it("answers a result it cannot serialize with -32603 for that request alone, in a session", async () => {
    const headers = await session();
    const deep = await post(
      call(1, "echo").replace('"arguments":{}', `"arguments":{"x":${nested(10_000)}}`),
      headers,
    );
    const cycle = await post(call(2, "cycle"), headers);
    const bigint = await post(call(3, "bigint"), headers);
    for (const [answer, id] of [
      [deep, 1],
      [cycle, 2],
      [bigint, 3],
    ] as const) {
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ jsonrpc: "2.0", id, error: { code: -32603 } });
      expect((answer.body as { error: { message: string } }).error.message).toMatch(
        /^The result could not be serialized: /,
      );
    }
    expect((await post(call(4, "count"), headers)).body).toMatchObject({
      id: 4,
      result: { content: [{ text: "1" }] },
    });
  });

  it("answers a result it cannot serialize with -32603 statelessly (2026-07-28)", async () => {
    const deep = await post(modernCall(1, "echo", `{"x":${nested(10_000)}}`), modernHeaders("echo"));
    expect(deep.body).toMatchObject({ id: 1, error: { code: -32603 } });
    const bigint = await post(modernCall(2, "bigint"), modernHeaders("bigint"));
    expect(bigint.body).toMatchObject({ id: 2, error: { code: -32603 } });
    const after = await post(modernCall(3, "count"), modernHeaders("count"));
    expect(after.body).toMatchObject({ id: 3, result: { content: [{ text: "1" }] } });
  });

  it("refuses ids that are neither strings nor safe integers with 400 -32600, running nothing", async () => {
    const headers = await session();
    for (const id of ["1.5", "9007199254740993", "1e400", "true", "null"]) {
      const answer = await post(
        `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"count","arguments":{}}}`,
        headers,
      );
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({
        jsonrpc: "2.0",
        id: null,
        error: { code: -32600, message: expect.any(String) },
      });
    }
    const after = await post(call("after", "count"), headers);
    expect(after.body).toMatchObject({ id: "after", result: { content: [{ text: "1" }] } });
  });

  it("accepts a valid request whose _meta nests deeper than a serializer can walk", async () => {
    const headers = await session();
    const meta = `${'{"a":'.repeat(10_000)}1${"}".repeat(10_000)}`;
    for (const id of ["deep", "deep2"]) {
      const answer = await post(
        `{"jsonrpc":"2.0","id":"${id}","method":"ping","params":{"_meta":${meta}}}`,
        headers,
      );
      expect(answer).toMatchObject({ status: 200, body: { jsonrpc: "2.0", id, result: {} } });
    }
    expect((await post(call("after", "count"), headers)).body).toMatchObject({
      result: { content: [{ text: "1" }] },
    });
  });

  it("answers a 2025-03-26 batch with the array of its responses, or 202 for notifications only", async () => {
    const headers = await session("2025-03-26");
    // 2025-03-26 clients need not send the version header.
    const { "mcp-protocol-version": _version, ...withoutVersion } = headers;
    const batch = await post(`[${call(1, "count")},${call(2, "count")}]`, withoutVersion);
    expect(batch.status).toBe(200);
    expect(batch.body).toEqual([
      { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "1" }] } },
      { jsonrpc: "2.0", id: 2, result: { content: [{ type: "text", text: "2" }] } },
    ]);
    const notifications = await post(
      '[{"jsonrpc":"2.0","method":"notifications/progress","params":{}}]',
      headers,
    );
    expect(notifications.status).toBe(202);
    const empty = await post("[]", headers);
    expect(empty).toMatchObject({ status: 400, body: { error: { code: -32600 } } });
    const bad = await post(`[${call(3, "count")},{"jsonrpc":"2.0","id":1.5,"method":"ping"}]`, headers);
    expect(bad).toMatchObject({
      status: 400,
      body: { error: { code: -32600, message: expect.stringContaining("element 1") } },
    });
    expect((await post(call("after", "count"), headers)).body).toMatchObject({
      result: { content: [{ text: "3" }] },
    });
  });

  it("refuses a batch on revisions after 2025-03-26 with 400 -32600, running nothing", async () => {
    const headers = await session("2025-11-25");
    const batch = await post(`[${call(1, "count")},${call(2, "count")}]`, headers);
    expect(batch).toMatchObject({
      status: 400,
      body: { error: { code: -32600, message: expect.stringContaining("batches") } },
    });
    expect((await post(call("after", "count"), headers)).body).toMatchObject({
      result: { content: [{ text: "1" }] },
    });
  });
});
