import { describe, expect, it } from "vitest";
import { McpClient } from "../../src/client/index.js";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import { Peer } from "../../src/protocol/engine/peer.js";
import { LEGACY_VERSIONS } from "../../src/protocol/revisions/index.js";
import { McpServer } from "../../src/server/index.js";
import { createMemoryTransportPair } from "../../src/transports/memory/pair.js";
import { connectInMemory } from "../helpers/connect.js";

const server = () =>
  new McpServer({ name: "hs", version: "2.0.0", instructions: "be nice" }).tool("t", {}, () => "ok");

describe("handshake", () => {
  for (const version of LEGACY_VERSIONS) {
    it(`negotiates ${version} when the client asks for it`, async () => {
      const { client, log } = await connectInMemory(server(), { protocolVersion: version });
      expect(client.protocolVersion).toBe(version);
      expect(client.serverInfo).toEqual({ name: "hs", version: "2.0.0" });
      expect(client.instructions).toBe("be nice");
      expect(client.capabilities).toEqual({ logging: {}, tools: { listChanged: true } });
      expect((await client.callTool("t")).text()).toBe("ok");
      expect(log.entries.map((e) => (e.message as { method?: string }).method)).toEqual([
        "initialize",
        undefined,
        "notifications/initialized",
        "tools/call",
        undefined,
      ]);
      expect(log.problems(version)).toEqual([]);
      await client.close();
    });
  }

  it("answers an unknown version with the server's latest", async () => {
    const [a, b] = createMemoryTransportPair();
    await server().connect(b);
    const raw = new Peer(a);
    await raw.start();
    const result = await raw.request("initialize", {
      protocolVersion: "1999-01-01",
      capabilities: {},
      clientInfo: { name: "old", version: "1" },
    });
    expect(result.protocolVersion).toBe("2025-11-25");
    await raw.close();
  });

  it("fails naming both sides' versions when the server answers one the client cannot speak", async () => {
    const [a, b] = createMemoryTransportPair();
    const fake = new Peer(b);
    fake.setRequestHandler("initialize", () => ({
      protocolVersion: "2099-01-01",
      capabilities: {},
      serverInfo: { name: "future", version: "9" },
    }));
    await fake.start();
    const error = await McpClient.connect({ transport: a, protocolVersion: "2025-06-18" }).catch((e) => e);
    expect(error.message).toBe(
      'The server answered with protocol version "2099-01-01", which this client does not speak ' +
        "(the client asked for 2025-06-18 and supports 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05)",
    );
    expect(fake.isClosed).toBe(true);
  });

  it("times out a server that never answers initialize", async () => {
    const [a, b] = createMemoryTransportPair();
    const silent = new Peer(b);
    silent.setRequestHandler("initialize", () => new Promise(() => {}));
    await silent.start();
    const error = await McpClient.connect({ transport: a, handshakeTimeout: 100 }).catch((e) => e);
    expect(error.code).toBe(ErrorCode.RequestTimeout);
    expect(error.message).toBe("The server did not answer initialize within 100 ms");
  });

  it("refuses requests before initialize, allows ping, and refuses a second initialize", async () => {
    const [a, b] = createMemoryTransportPair();
    await server().connect(b);
    const raw = new Peer(a);
    await raw.start();
    await expect(raw.request("tools/list")).rejects.toMatchObject({
      code: ErrorCode.InvalidRequest,
      message: "Server not initialized: send initialize before tools/list",
    });
    expect(await raw.request("ping")).toEqual({});
    const params = {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "c", version: "1" },
    };
    await raw.request("initialize", params);
    raw.notify("notifications/initialized");
    expect((await raw.request<{ tools: unknown[] }>("tools/list")).tools).toHaveLength(1);
    await expect(raw.request("initialize", params)).rejects.toMatchObject({
      code: ErrorCode.InvalidRequest,
      message: "The session is already initialized",
    });
    await raw.close();
  });
});
