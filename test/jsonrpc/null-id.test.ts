/**
 * JSON-RPC 2.0 §5: what has no readable id is answered with `"id": null`. A peer answers a
 * message whose id is no MCP id (`1.5`) that way, and takes such an answer from the other side
 * as the error it is, not as a malformed message.
 */
import { describe, expect, it } from "vitest";
import { messageProblem } from "../../src/jsonrpc/messages.js";
import { Peer } from "../../src/protocol/engine/peer.js";
import { createMemoryTransportPair } from "../../src/transports/memory/pair.js";

describe("a null id", () => {
  it("is an error response's only: a request, a notification or a result with it is malformed", () => {
    const error = { code: -32600, message: "Invalid request" };
    expect(messageProblem({ jsonrpc: "2.0", id: null, error })).toBeUndefined();
    for (const bad of [
      { jsonrpc: "2.0", id: null, method: "ping" },
      { jsonrpc: "2.0", id: null, result: {} },
      { jsonrpc: "2.0", id: null, result: {}, error },
      { jsonrpc: "2.0", id: 1.5, error },
    ]) {
      expect(messageProblem(bad)).toBeDefined();
    }
  });

  it("answers a request whose id is 1.5 with -32600 and a null id, and reports such an answer as an error", async () => {
    const [a, b] = createMemoryTransportPair();
    const server = new Peer(b);
    let ran = false;
    server.setRequestHandler("ping", () => {
      ran = true;
      return {};
    });
    await server.start();
    let answered!: (message: unknown) => void;
    const answer = new Promise<unknown>((resolve) => {
      answered = resolve;
    });
    await a.start({
      onmessage: (message) => answered(message),
      onclose: () => {},
      onerror: () => {},
      oninputend: () => {},
    });
    a.send({ jsonrpc: "2.0", id: 1.5, method: "ping" } as never);
    expect(await answer).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32600, message: expect.stringContaining('"id"') },
    });
    expect(ran).toBe(false);
    await a.close();

    // The other way: a peer given that answer reports the error it carries.
    const [c, d] = createMemoryTransportPair();
    const client = new Peer(c);
    const reported = new Promise<Error>((resolve) => {
      client.onerror = resolve;
    });
    await client.start();
    await d.start({ onmessage: () => {}, onclose: () => {}, onerror: () => {}, oninputend: () => {} });
    d.send((await answer) as never);
    expect((await reported).message).toMatch(/^Peer reported an error: Invalid request/);
    await client.close();
  });
});
