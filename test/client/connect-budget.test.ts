/**
 * Connecting has one budget: the stateless probe (`server/discover`) and the `initialize`
 * handshake share `handshakeTimeout`; a pinned revision is never replaced by the other era's; a
 * server that answers the probe late (it started slowly) is probed again on the revision it names.
 */
import { describe, expect, it, vi } from "vitest";
import { McpClient } from "../../src/client/index.js";
import { ErrorCode, McpError } from "../../src/jsonrpc/errors.js";
import { Peer } from "../../src/protocol/engine/peer.js";
import type { ProtocolVersion } from "../../src/protocol/revisions/index.js";
import { McpServer } from "../../src/server/index.js";
import { createMemoryTransportPair } from "../../src/transports/memory/pair.js";

/** A raw peer on the server side of an in-memory pair, answering as `handlers` say. */
async function rawServer(
  handlers: Record<string, (params: Record<string, unknown>) => object | Promise<object>>,
) {
  const [clientSide, serverSide] = createMemoryTransportPair();
  const server = new Peer(serverSide);
  const seen: string[] = [];
  for (const [method, handler] of Object.entries(handlers)) {
    server.setRequestHandler(method, (params) => {
      seen.push(method);
      return handler(params);
    });
  }
  await server.start();
  return { clientSide, server, seen };
}

const never = () => new Promise<object>(() => {});

describe("connecting within one budget", () => {
  // Time is the subject of these two: fake timers (Date included) make the budget exact, whatever the load.
  it("gives a server silent to both the probe and initialize the handshake timeout in all, not twice", async () => {
    vi.useFakeTimers();
    try {
      const { clientSide, seen } = await rawServer({ "server/discover": never, initialize: never });
      let outcome: unknown;
      void McpClient.connect({ transport: clientSide, handshakeTimeout: 2000 }).then(
        () => (outcome = "connected"),
        (error) => (outcome = error),
      );
      // The probe gets half the budget, initialize what is left of it...
      await vi.advanceTimersByTimeAsync(999);
      expect(seen).toEqual(["server/discover"]);
      await vi.advanceTimersByTimeAsync(1);
      expect(seen).toEqual(["server/discover", "initialize"]);
      await vi.advanceTimersByTimeAsync(999);
      expect(outcome).toBeUndefined();
      // ...and the budget ends at 2000 ms in all (before, the two waits added up to 4000 ms).
      await vi.advanceTimersByTimeAsync(1);
      expect(outcome).toBeInstanceOf(McpError);
      expect(outcome).toMatchObject({
        code: ErrorCode.RequestTimeout,
        message:
          "The server answered neither server/discover nor initialize within 2000 ms " +
          "(1000 ms waiting for server/discover, then 1000 ms for initialize)",
      });
    } finally {
      vi.useRealTimers();
    }
  });

  it("takes the probe's share from probeTimeout", async () => {
    vi.useFakeTimers();
    try {
      const { clientSide, seen } = await rawServer({ "server/discover": never, initialize: never });
      const connecting = McpClient.connect({
        transport: clientSide,
        handshakeTimeout: 1500,
        probeTimeout: 300,
      }).catch((e) => e);
      await vi.advanceTimersByTimeAsync(300);
      expect(seen).toEqual(["server/discover", "initialize"]);
      await vi.advanceTimersByTimeAsync(1200);
      expect((await connecting).message).toMatch(
        /within 1500 ms \(300 ms waiting for server\/discover, then 1200 ms for initialize\)$/,
      );
    } finally {
      vi.useRealTimers();
    }
  });

  it("never replaces a pinned stateless revision with the handshake", async () => {
    const { clientSide, seen } = await rawServer({ "server/discover": never, initialize: () => ({}) });
    const error = await McpClient.connect({
      transport: clientSide,
      protocolVersion: "2026-07-28",
      handshakeTimeout: 500,
    }).catch((e) => e);
    expect(error.code).toBe(ErrorCode.RequestTimeout);
    expect(error.message).toBe(
      "The client is pinned to protocol 2026-07-28, and the server did not answer server/discover within 500 ms",
    );
    expect(seen).toEqual(["server/discover"]);
  });

  it("says a pinned stateless revision is not spoken when the server refuses the probe", async () => {
    const { clientSide, seen } = await rawServer({ initialize: () => ({}) });
    const error = await McpClient.connect({ transport: clientSide, protocolVersion: "2026-07-28" }).catch(
      (e) => e,
    );
    expect(error.code).toBe(ErrorCode.UnsupportedProtocolVersion);
    expect(error.message).toMatch(
      /^The client is pinned to protocol 2026-07-28, and the server does not speak it/,
    );
    expect(seen).toEqual([]);
  });

  it("probes again on the stateless revision a late server names when it refuses initialize", async () => {
    let discovers = 0;
    const { clientSide, seen } = await rawServer({
      // The first probe is answered too late: the server was still starting.
      "server/discover": () => {
        discovers++;
        return discovers === 1
          ? never()
          : {
              supportedVersions: ["2026-07-28"],
              capabilities: { tools: {} },
              resultType: "complete",
              _meta: { "io.modelcontextprotocol/serverInfo": { name: "late", version: "1" } },
            };
      },
      initialize: () => {
        throw new McpError(ErrorCode.UnsupportedProtocolVersion, "Unsupported protocol version: 2025-11-25", {
          supported: ["2026-07-28"],
          requested: "2025-11-25",
        });
      },
    });
    const client = await McpClient.connect({
      transport: clientSide,
      handshakeTimeout: 2000,
      probeTimeout: 200,
    });
    expect(client.protocolVersion).toBe("2026-07-28");
    expect(client.serverInfo).toEqual({ name: "late", version: "1" });
    expect(seen).toEqual(["server/discover", "initialize", "server/discover"]);
    await client.close();
  });

  it("probes again when initialize is answered with a stateless revision", async () => {
    let discovers = 0;
    const { clientSide, seen } = await rawServer({
      "server/discover": () =>
        ++discovers === 1
          ? never()
          : {
              supportedVersions: ["2026-07-28"],
              capabilities: {},
              resultType: "complete",
              _meta: { "io.modelcontextprotocol/serverInfo": { name: "late", version: "2" } },
            },
      initialize: () => ({
        protocolVersion: "2026-07-28",
        capabilities: {},
        serverInfo: { name: "late", version: "2" },
      }),
    });
    const client = await McpClient.connect({
      transport: clientSide,
      handshakeTimeout: 2000,
      probeTimeout: 200,
    });
    expect(client.protocolVersion).toBe("2026-07-28");
    expect(seen).toEqual(["server/discover", "initialize", "server/discover"]);
    await client.close();
  });

  it("refuses an unknown protocol version before it starts anything", async () => {
    const server = new McpServer({ name: "s", version: "1" });
    const [clientSide, serverSide] = createMemoryTransportPair();
    await server.connect(serverSide);
    const error = await McpClient.connect({
      transport: clientSide,
      protocolVersion: "2025-13-01" as ProtocolVersion,
    }).catch((e) => e);
    expect(error.code).toBe(ErrorCode.InvalidParams);
    expect(error.message).toBe(
      'Unknown protocol version "2025-13-01" (mcpkit speaks 2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05)',
    );
    await server.close();
  });
});
