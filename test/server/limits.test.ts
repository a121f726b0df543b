/**
 * Limits on what a client can make a server do: a resource URI too long to match against
 * templates cheaply, and a multi round-trip `requestState` kept past its lifetime.
 */
import { describe, expect, it } from "vitest";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import { Peer } from "../../src/protocol/engine/peer.js";
import { McpServer } from "../../src/server/index.js";
import { RequestStateSigner } from "../../src/server/sessions/request-state.js";
import { createMemoryTransportPair } from "../../src/transports/memory/pair.js";
import { connectInMemory } from "../helpers/connect.js";

describe("limits", () => {
  for (const protocolVersion of ["2025-11-25", "2026-07-28"] as const) {
    it(`refuses a URI over maxUriLength before matching templates, with -32602 (${protocolVersion})`, async () => {
      let reads = 0;
      const server = new McpServer({ name: "long", version: "1" }, { maxUriLength: 100 }).resourceTemplate(
        "notes://{+path}",
        { name: "note" },
        (_uri, { path }) => {
          reads++;
          return `note ${path}`;
        },
      );
      const { client } = await connectInMemory(server, { protocolVersion });
      const error = await client.readResource(`notes://${"a".repeat(1_000_000)}`).catch((e) => e);
      expect(error.code).toBe(ErrorCode.InvalidParams);
      expect(error.message).toBe(
        "Invalid params: the URI is 1000008 characters long; this server accepts at most 100",
      );
      expect(reads).toBe(0);
      const ok = await client.readResource("notes://a/b");
      expect(ok.contents).toEqual([{ uri: "notes://a/b", text: "note a/b" }]);
      await client.close();
    });
  }

  it("refuses a requestState past its lifetime, and accepts one within it", () => {
    // A lifetime below zero issues states that have already expired: no clock to wait for.
    const expired = new RequestStateSigner("secret", -1);
    const state = expired.sign("tools/call t", { a: 1 });
    expect(() => expired.verify(state, "tools/call t")).toThrow(
      "Invalid params: requestState has expired: start the request again",
    );
    const fresh = new RequestStateSigner("secret").sign("tools/call t", { a: 2 });
    expect(new RequestStateSigner("secret").verify(fresh, "tools/call t")).toEqual({ a: 2 });
  });

  it("refuses a listen stream over maxListenStreams, and serves the others", async () => {
    const server = new McpServer({ name: "listen", version: "1" }, { maxListenStreams: 1 }).tool(
      "t",
      {},
      () => "ok",
    );
    const [clientSide, serverSide] = createMemoryTransportPair();
    await server.connect(serverSide);
    const peer = new Peer(clientSide);
    const acknowledged: unknown[] = [];
    peer.setNotificationHandler("notifications/subscriptions/acknowledged", (params) =>
      acknowledged.push(params),
    );
    await peer.start();
    const _meta = {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": {},
    };
    const first = new AbortController();
    const open = peer.request(
      "subscriptions/listen",
      { notifications: { toolsListChanged: true }, _meta },
      {
        signal: first.signal,
      },
    );
    open.catch(() => {});
    await expect(
      peer.request("subscriptions/listen", { notifications: { toolsListChanged: true }, _meta }),
    ).rejects.toMatchObject({
      code: ErrorCode.InvalidRequest,
      message:
        "Too many subscriptions/listen streams: 1 are open, the most this server allows (maxListenStreams); close one first",
    });
    expect(acknowledged).toHaveLength(1);
    const call = (await peer.request("tools/call", { name: "t", arguments: {}, _meta })) as {
      content: unknown;
    };
    expect(call.content).toEqual([{ type: "text", text: "ok" }]);
    first.abort();
    await peer.close();
    await server.close();
  });
});

describe("rate limits", () => {
  it("refuses a tool call over its bucket with the time to retry, per tool and per session", async () => {
    let runs = 0;
    const server = new McpServer(
      { name: "limited", version: "1" },
      {
        rateLimit: {
          capacity: 100,
          refillPerSecond: 100,
          tools: { scarce: { capacity: 2, refillPerSecond: 0.001 } },
        },
      },
    )
      .tool("scarce", {}, () => {
        runs++;
        return "ran";
      })
      .tool("plenty", {}, () => "ran");
    const { client } = await connectInMemory(server);
    expect((await client.callTool("scarce")).text()).toBe("ran");
    expect((await client.callTool("scarce")).text()).toBe("ran");
    const error = await client.callTool("scarce").catch((e) => e);
    expect(error.code).toBe(ErrorCode.ServerError);
    expect(error.message).toMatch(
      /^Rate limit exceeded: tool scarce allows 2 calls at once and 0\.001 per second; retry in \d+ ms$/,
    );
    expect(error.data.retryAfterMs).toBeGreaterThan(900_000);
    expect(runs).toBe(2);
    expect((await client.callTool("plenty")).text()).toBe("ran");
    // Another session has buckets of its own.
    const other = await connectInMemory(server);
    expect((await other.client.callTool("scarce")).text()).toBe("ran");
    await other.client.close();
    await client.close();
  });
});
