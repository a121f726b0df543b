/**
 * Stopping requests in flight over Streamable HTTP: an aborted or cancelled call hangs up its POST
 * (the server sees the connection close), and the client goes on working; close() hangs up every
 * POST still open. The server is a bare node:http one, so what reaches the wire is what is checked.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { McpClient } from "../../src/client/index.js";

interface Held {
  method: string;
  closed: Promise<void>;
}

/** Answers initialize and ping at once, 405 to GET, and holds every tools/call open. */
async function holdingServer() {
  const held: Held[] = [];
  const sockets = new Set<import("node:net").Socket>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== "POST") {
      res.writeHead(405).end();
      return;
    }
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      body += chunk;
    });
    req.on("end", () => {
      const message = JSON.parse(body) as {
        id?: number;
        method: string;
        params?: { protocolVersion?: string };
      };
      if (message.id === undefined) {
        res.writeHead(202).end();
        return;
      }
      if (message.method === "tools/call") {
        held.push({
          method: message.method,
          closed: new Promise((resolve) => res.once("close", () => resolve())),
        });
        return;
      }
      const result =
        message.method === "initialize"
          ? {
              protocolVersion: "2025-11-25",
              capabilities: { tools: {} },
              serverInfo: { name: "held", version: "1" },
            }
          : {};
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ jsonrpc: "2.0", id: message.id, result }));
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  const close = async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  };
  /** Resolves once `n` calls are being held. */
  const holding = (n: number) => expect.poll(() => held.length).toBe(n);
  return { url, held, holding, close };
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

async function setup() {
  const server = await holdingServer();
  cleanups.push(server.close);
  const client = await McpClient.connect({ url: server.url, protocolVersion: "2025-11-25" });
  cleanups.push(() => client.close());
  return { server, client };
}

describe("Streamable HTTP client: requests stopped in flight", () => {
  it("hangs up the POST of an aborted call, rejects it with the reason, and keeps working", async () => {
    const { server, client } = await setup();
    const controller = new AbortController();
    const call = client.callTool("slow", {}, { signal: controller.signal }).catch((error: Error) => error);
    await server.holding(1);
    controller.abort(new Error("the user gave up"));
    expect(((await call) as Error).message).toBe("the user gave up");
    await server.held[0]!.closed;
    await expect(client.ping()).resolves.toBeUndefined();
  });

  it("hangs up the POST of a call that timed out", async () => {
    const { server, client } = await setup();
    // Long enough for the POST to reach the server on a loaded machine before it times out.
    const call = client.callTool("slow", {}, { timeout: 1500 }).catch((error: Error) => error);
    await server.holding(1);
    expect(((await call) as Error).message).toMatch(/timed out after 1500 ms/);
    await server.held[0]!.closed;
    await expect(client.ping()).resolves.toBeUndefined();
  });

  it("hangs up every POST still open on close()", async () => {
    const { server, client } = await setup();
    const calls = [client.callTool("a"), client.callTool("b")].map((c) => c.catch((error: Error) => error));
    await server.holding(2);
    await client.close();
    for (const call of await Promise.all(calls)) expect(call).toBeInstanceOf(Error);
    await Promise.all(server.held.map((h) => h.closed));
  });
});
