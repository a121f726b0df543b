/**
 * A POST body over `maxBodySize` is answered 413 as soon as the cap is passed, and the server
 * reads no further: not through `serveHttp()` (node:http), not through the web handler.
 */
import { connect } from "node:net";
import { afterEach, expect, it } from "vitest";
import { McpServer } from "../../src/server/index.js";
import type { HttpServerHandle } from "../../src/transports/http/server/index.js";

let http: HttpServerHandle | undefined;
afterEach(async () => {
  await http?.close();
  http = undefined;
});

const server = () => new McpServer({ name: "capped", version: "1" }).tool("t", {}, () => "ok");

it("serveHttp answers a never-ending chunked POST 413 while it is sent, and closes the connection", async () => {
  http = await server().serveHttp({ port: 0, maxBodySize: 1024 });
  const socket = connect(http.port, "127.0.0.1");
  socket.on("error", () => {}); // writing on after the server closed may reset the connection
  let answer = "";
  socket.on("data", (chunk) => {
    answer += chunk.toString("latin1");
  });
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  let isClosed = false;
  void closed.then(() => {
    isClosed = true;
  });
  socket.write(
    `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${http.port}\r\nContent-Type: application/json\r\n` +
      "Accept: application/json, text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n",
  );
  // Far more than socket buffers hold: a server still reading (to drain the body) never stops it.
  const most = 64 * 1024 * 1024;
  const chunk = `4000\r\n${"a".repeat(0x4000)}\r\n`;
  let sent = 0;
  while (!isClosed && sent < most) {
    sent += chunk.length;
    if (!socket.write(chunk)) {
      await Promise.race([new Promise((resolve) => socket.once("drain", resolve)), closed]);
    }
  }
  // The body never ended, yet the answer came, and the server stopped reading: it closed.
  expect(isClosed).toBe(true);
  expect(sent).toBeLessThan(most);
  expect(answer).toMatch(/^HTTP\/1\.1 413 Payload Too Large\r\n/);
  expect(answer.toLowerCase()).toContain("connection: close");
  expect(answer).toContain('"message":"Payload Too Large: Request body larger than 1024 bytes"');
});

it("the web handler answers 413 at the cap, reading no further, even when cancelling the body never settles", async () => {
  const mcp = new McpServer({ name: "capped", version: "1" }, { http: { maxBodySize: 1024 } }).tool(
    "t",
    {},
    () => "ok",
  );
  let pulled = 0;
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulled++;
      controller.enqueue(new Uint8Array(4096).fill(0x61));
    },
    cancel() {
      cancelled = true;
      return new Promise<void>(() => {}); // a source that never says it is done
    },
  });
  const response = await mcp.fetch(
    new Request("http://127.0.0.1/mcp", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body,
      duplex: "half",
    } as RequestInit),
  );
  expect(response.status).toBe(413);
  expect(await response.json()).toMatchObject({ error: { code: -32600 } });
  expect(cancelled).toBe(true);
  // One chunk passed the cap; the stream's own read-ahead may have pulled a few more, no further.
  expect(pulled).toBeLessThan(8);
});
