import { afterEach, expect } from "vitest";
import { type CommonClientOptions, McpClient } from "../../src/client/index.js";
import { McpError } from "../../src/jsonrpc/index.js";
import type { McpServer } from "../../src/server/index.js";
import { createMemoryTransportPair } from "../../src/transports/memory/index.js";
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

/** A connected in-memory session, with the log of what the client sent and saw. */
export interface InMemorySession {
  client: McpClient;
  log: MessageLog;
}

/**
 * For a test file whose tests each connect to a server in memory: returns the connect function,
 * and after each test checks that every message of the session, both ways, fits the official
 * schema of the negotiated revision, then closes the client.
 */
export function inMemorySessions(): (
  server: McpServer,
  options?: CommonClientOptions,
) => Promise<InMemorySession> {
  const open: InMemorySession[] = [];
  afterEach(async () => {
    for (const { client, log } of open.splice(0)) {
      expect(log.problems(client.protocolVersion)).toEqual([]);
      await client.close();
    }
  });
  return async (server, options) => {
    const session = await connectInMemory(server, options);
    open.push(session);
    return session;
  };
}

/** The McpError a promise rejects with; fails the test if it resolves or rejects otherwise. */
export async function rejection(promise: Promise<unknown>): Promise<McpError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(McpError);
  return error as McpError;
}

/** The connection still answers after an error. */
export async function stillAlive(client: McpClient): Promise<void> {
  await expect(client.ping()).resolves.toBeUndefined();
}
