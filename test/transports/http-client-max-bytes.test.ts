/**
 * The Streamable HTTP client's `maxMessageBytes`: a JSON answer longer than it, by its length or
 * (sent in chunks, with no length) as it arrives, fails its request unparsed; the next one is read.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import { StreamableHttpClientTransport } from "../../src/transports/http/client/index.js";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Answers each POST with a JSON response to its id: `big` in 64 KiB chunks without a length. */
async function server(): Promise<URL> {
  const http: Server = createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8").on("data", (chunk: string) => {
      body += chunk;
    });
    request.on("end", () => {
      const { id, method } = JSON.parse(body) as { id: number; method: string };
      const answer = `${JSON.stringify({ jsonrpc: "2.0", id, result: { text: method === "big" ? "x".repeat(1_000_000) : "small" } })}`;
      if (method === "big-chunked") {
        response.writeHead(200, { "content-type": "application/json" });
        const whole = JSON.stringify({ jsonrpc: "2.0", id, result: { text: "y".repeat(1_000_000) } });
        for (let at = 0; at < whole.length; at += 65536) response.write(whole.slice(at, at + 65536));
        response.end();
        return;
      }
      response.writeHead(200, {
        "content-type": "application/json",
        "content-length": Buffer.byteLength(answer),
      });
      response.end(answer);
    });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => new Promise((resolve) => http.close(resolve)));
  return new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`);
}

describe("StreamableHttpClientTransport with maxMessageBytes", () => {
  it("fails a request whose JSON answer is too long, by length or as it arrives, and reads on", async () => {
    const transport = new StreamableHttpClientTransport({ url: await server(), maxMessageBytes: 100_000 });
    cleanups.push(() => transport.close());
    const answers = new Map<unknown, unknown>();
    let waiting: (() => void) | undefined;
    await transport.start({
      onmessage: (message) => {
        answers.set((message as { id: unknown }).id, message);
        waiting?.();
      },
      onerror: () => {},
      oninputend: () => {},
      onclose: () => {},
    });
    const answer = (id: number, method: string) => {
      const got = new Promise<void>((resolve) => {
        waiting = () => {
          if (answers.has(id)) resolve();
        };
      });
      transport.send({ jsonrpc: "2.0", id, method });
      return got.then(() => answers.get(id));
    };
    expect(await answer(1, "big")).toEqual({
      jsonrpc: "2.0",
      id: 1,
      error: {
        code: ErrorCode.InternalError,
        message:
          "The server's response to request 1 is 1000045 bytes, more than maxMessageBytes (100000); it was skipped unread",
        data: { size: 1000045, maxMessageBytes: 100000 },
      },
    });
    expect(await answer(2, "big-chunked")).toMatchObject({
      id: 2,
      error: { data: { size: 1000045, maxMessageBytes: 100000 } },
    });
    expect(await answer(3, "small")).toEqual({ jsonrpc: "2.0", id: 3, result: { text: "small" } });
  });
});
