/**
 * The legacy HTTP+SSE transport's `POST /messages` holds to the same rules as Streamable HTTP: a
 * repeated Content-Type is refused with 415, and a message whose id is no MCP id with 400 -32600
 * and a null id; neither runs anything.
 */
import { connect } from "node:net";
import { afterEach, expect, it } from "vitest";
import { McpServer } from "../../src/server/index.js";
import type { HttpServerHandle } from "../../src/transports/http/server/index.js";
import { type SseEvent, SseParser } from "../../src/transports/http/shared/sse.js";
import { INITIALIZED, initializeRequest } from "../helpers/initialize.js";

let http: HttpServerHandle | undefined;
afterEach(async () => {
  await http?.close();
  http = undefined;
});

/** The events of an open SSE stream, as they come. */
class Events {
  private readonly seen: SseEvent[] = [];
  private waiters: (() => void)[] = [];

  constructor(body: ReadableStream<Uint8Array>) {
    const parser = new SseParser((event) => this.seen.push(event));
    void (async () => {
      for await (const chunk of body.pipeThrough(new TextDecoderStream())) {
        parser.push(chunk);
        for (const wake of this.waiters.splice(0)) wake();
      }
    })().catch(() => {});
  }

  async next(match: (event: SseEvent) => boolean): Promise<SseEvent> {
    for (;;) {
      const found = this.seen.find(match);
      if (found) return found;
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }
}

/** Sends `head` and `body` as one raw HTTP/1.1 request; the status code of the answer. */
function rawPost(port: number, head: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let answer = "";
    socket.on("data", (chunk) => {
      answer += chunk.toString("latin1");
      const status = /^HTTP\/1\.1 (\d{3})/.exec(answer);
      if (status && answer.includes("\r\n\r\n")) {
        socket.destroy();
        resolve(Number(status[1]));
      }
    });
    socket.on("error", reject);
    socket.write(`${head}Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  });
}

/** A legacy session on `http`, initialized: how to POST to it and await an answer on its stream. */
async function legacySession(port: number) {
  const base = `http://127.0.0.1:${port}`;
  const abort = new AbortController();
  const stream = await fetch(`${base}/sse`, {
    headers: { accept: "text/event-stream" },
    signal: abort.signal,
  });
  const events = new Events(stream.body!);
  const endpoint = (await events.next((e) => e.event === "endpoint")).data;
  const post = (body: string) =>
    fetch(`${base}${endpoint}`, { method: "POST", headers: { "content-type": "application/json" }, body });
  const answer = async (id: string) =>
    JSON.parse((await events.next((e) => e.event === "message" && JSON.parse(e.data).id === id)).data);
  await post(JSON.stringify(initializeRequest({ id: "init", protocolVersion: "2024-11-05" })));
  await answer("init");
  await post(JSON.stringify(INITIALIZED));
  return { endpoint, post, answer, close: () => abort.abort() };
}

const call = (id: unknown) =>
  JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "count", arguments: {} } });

async function counting() {
  let calls = 0;
  const server = new McpServer({ name: "legacy", version: "1" }).tool("count", {}, () => String(++calls));
  http = await server.serveHttp({ port: 0, legacySse: true });
  return legacySession(http.port);
}

it("refuses a POST with two Content-Type headers with 415, dispatching nothing", async () => {
  const session = await counting();
  const status = await rawPost(
    http!.port,
    `POST ${session.endpoint} HTTP/1.1\r\nHost: 127.0.0.1:${http!.port}\r\nContent-Type: application/json\r\nContent-Type: text/plain\r\n`,
    call("twice"),
  );
  expect(status).toBe(415);
  // The refused call ran nothing: the next one is the first.
  expect((await session.post(call("after"))).status).toBe(202);
  expect(await session.answer("after")).toMatchObject({ result: { content: [{ type: "text", text: "1" }] } });
  session.close();
});

it("refuses an id that is no MCP id with 400 -32600 and a null id, running nothing", async () => {
  const session = await counting();
  const refused = await session.post(call(1.5));
  expect(refused.status).toBe(400);
  expect(await refused.json()).toEqual({
    jsonrpc: "2.0",
    id: null,
    error: { code: -32600, message: expect.stringContaining('"id"') },
  });
  expect((await session.post(call("after"))).status).toBe(202);
  expect(await session.answer("after")).toMatchObject({ result: { content: [{ type: "text", text: "1" }] } });
  session.close();
});
