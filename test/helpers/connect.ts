import { McpClient } from "../../src/client/index.js";
import type { CommonClientOptions } from "../../src/client/options.js";
import type { McpServer } from "../../src/server/server.js";
import { createMemoryTransportPair } from "../../src/transports/memory/pair.js";
import { MessageLog } from "./spec-schema.js";

/** Connects our client to our server in memory, recording every message the client sees. */
export async function connectInMemory(
  server: McpServer,
  options: CommonClientOptions = {},
): Promise<{ client: McpClient; log: MessageLog }> {
  const [clientSide, serverSide] = createMemoryTransportPair();
  await server.connect(serverSide);
  const log = new MessageLog();
  const client = await McpClient.connect({
    ...options,
    transport: clientSide,
    trace: (direction, message) => log.record(direction === "send" ? "client" : "server", message),
  });
  return { client, log };
}
