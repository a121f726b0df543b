import { McpClient } from "../../src/client/index.js";
import type { CommonClientOptions } from "../../src/client/options.js";
import type { McpServer } from "../../src/server/server.js";
import { createMemoryTransportPair } from "../../src/transports/memory/pair.js";
import { MessageLog } from "./spec-schema.js";

/**
 * Connects our client to our server in memory, recording every message the client sees. The
 * session speaks 2025-11-25 unless `options.protocolVersion` says otherwise (2026-07-28: stateless).
 */
export async function connectInMemory(
  server: McpServer,
  options: CommonClientOptions = {},
): Promise<{ client: McpClient; log: MessageLog }> {
  const [clientSide, serverSide] = createMemoryTransportPair();
  await server.connect(serverSide);
  const log = new MessageLog();
  // These tests are about the handshake era unless they ask for another version.
  const client = await McpClient.connect({
    ...options,
    protocolVersion: options.protocolVersion ?? "2025-11-25",
    transport: clientSide,
    trace: (direction, message) => log.record(direction === "send" ? "client" : "server", message),
  });
  return { client, log };
}
