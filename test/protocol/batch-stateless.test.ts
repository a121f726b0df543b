/**
 * JSON-RPC batches belong to 2025-03-26 alone. A request in the stateless form of 2026-07-28 (its
 * protocol version in `_meta`) inside a batch of a 2025-03-26 session is refused with -32600 and
 * runs nothing, where alone it would be served statelessly: over stdio and over Streamable HTTP.
 */
import { afterEach, describe, expect, it } from "vitest";
import { McpServer } from "../../src/server/index.js";
import type { HttpServerHandle } from "../../src/transports/http/server/index.js";
import { INITIALIZED, initializeRequest } from "../helpers/initialize.js";
import { fixture, RawStdio } from "../helpers/raw-stdio.js";

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};
const call = (id: unknown) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "count", arguments: {} },
});
const statelessCall = (id: unknown) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "count", arguments: {}, _meta: META },
});

describe("a stateless request in a 2025-03-26 batch", () => {
  let raw: RawStdio | undefined;
  let http: HttpServerHandle | undefined;
  afterEach(async () => {
    await raw?.close();
    raw = undefined;
    await http?.close();
    http = undefined;
  });

  it("is refused with -32600 over stdio; the rest of the batch runs", async () => {
    raw = new RawStdio([fixture("bad-input-server.js")]);
    await raw.initialize("2025-03-26");
    raw.send([call(1), statelessCall(2)]);
    const batch = (await raw.next((m) => Array.isArray(m))) as unknown as Record<string, unknown>[];
    expect(batch).toHaveLength(2);
    expect(batch).toContainEqual({
      jsonrpc: "2.0",
      id: 1,
      result: { content: [{ type: "text", text: "1" }] },
    });
    expect(batch).toContainEqual({
      jsonrpc: "2.0",
      id: 2,
      error: { code: -32600, message: expect.stringContaining("no batches") },
    });
    // Alone, the same request is served statelessly, and it is the second call that runs.
    raw.send(statelessCall("alone"));
    expect(await raw.answer("alone")).toMatchObject({ result: { content: [{ type: "text", text: "2" }] } });
  });

  it("refuses the whole batch with 400 -32600 over Streamable HTTP, running nothing", async () => {
    let calls = 0;
    const server = new McpServer({ name: "batch", version: "1" }).tool("count", {}, () => String(++calls));
    http = await server.serveHttp({ port: 0, responseMode: "json" });
    const post = async (body: unknown, headers: Record<string, string> = {}) => {
      const response = await fetch(http!.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...headers,
        },
        body: JSON.stringify(body),
      });
      const text = await response.text();
      return {
        status: response.status,
        body: text === "" ? undefined : JSON.parse(text),
        headers: response.headers,
      };
    };
    const init = await post(initializeRequest({ id: 0, protocolVersion: "2025-03-26" }));
    const session = { "mcp-session-id": init.headers.get("mcp-session-id")! };
    await post(INITIALIZED, session);

    const refused = await post([call(1), statelessCall(2)], session);
    expect(refused).toMatchObject({
      status: 400,
      body: {
        jsonrpc: "2.0",
        id: null,
        error: { code: -32600, message: expect.stringContaining("element 1") },
      },
    });
    expect(calls).toBe(0);
    const after = await post([call(3)], session);
    expect(after.body).toEqual([
      { jsonrpc: "2.0", id: 3, result: { content: [{ type: "text", text: "1" }] } },
    ]);
  });
});
