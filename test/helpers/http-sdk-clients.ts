/**
 * The official SDK clients against our `serveHttp()` on 127.0.0.1, for the tests of
 * test/transports/http-server*.test.ts: `tap` records what an SDK client transport sends and delivers,
 * `connectV1`/`connectV2` connect an SDK v1/v2 client through a tapped transport, `serve` serves one of
 * our servers recording each HTTP request, and `parseSse` reads a complete SSE body. A test file that
 * connects or serves with them calls `closeAfterEach()`: after each test it closes those clients and
 * servers, and any the file adds to `clients` and `handles`.
 */
import type { IncomingMessage } from "node:http";
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from "@modelcontextprotocol/client";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import type { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import type { StreamableHTTPClientTransport as HttpV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach } from "vitest";
import type { McpServer, ServeHttpOptions } from "../../src/server/index.js";
import type { HttpServerHandle } from "../../src/transports/http/server/index.js";
import type { MessageLog } from "./spec-schema.js";

export const CLIENT_INFO = { name: "http-interop", version: "0.0.1" };

export type Message = Record<string, any>;
export interface Progress {
  progress: number;
  total?: number;
  message?: string;
}
export interface CallResult {
  content: { type: string; text?: string }[];
  isError?: boolean;
}
/** What the tests use of either SDK's client. */
export interface SdkClient {
  call(name: string, onprogress?: (p: Progress) => void): Promise<CallResult>;
  close(): Promise<void>;
}

/** Clients to close after the test, before the servers. */
export const clients: { close(): Promise<void> }[] = [];
/** HTTP servers to close after the test. */
export const handles: HttpServerHandle[] = [];

/** Closes, after each test of the calling file, the `clients` and then the `handles`. */
export function closeAfterEach(): void {
  afterEach(async () => {
    for (const client of clients.splice(0)) await client.close().catch(() => {});
    for (const handle of handles.splice(0)) await handle.close();
  });
}

/** The SDK transport's `send` and the messages it delivers, recorded as "client" and "server". */
export function tap<T extends { send(message: any, options?: any): Promise<void>; onmessage?: unknown }>(
  transport: T,
  log: MessageLog,
): T {
  const send = transport.send.bind(transport);
  transport.send = (message: unknown, options?: unknown) => {
    log.record("client", message);
    return send(message, options);
  };
  // Both SDKs chain an `onmessage` set before `connect`, and call it first.
  transport.onmessage = (message: unknown) => log.record("server", message);
  return transport;
}

/** An SDK v1 client over `transport`: Streamable HTTP or the legacy HTTP+SSE. */
export async function connectV1(transport: HttpV1 | SSEClientTransport, log: MessageLog): Promise<SdkClient> {
  const client = new ClientV1(CLIENT_INFO);
  await client.connect(tap(transport, log));
  clients.push(client);
  return {
    call: async (name, onprogress) =>
      (await client.callTool({ name }, undefined, { onprogress })) as CallResult,
    close: () => client.close(),
  };
}

/** An SDK v2 client over Streamable HTTP. */
export async function connectV2(url: string, log: MessageLog): Promise<SdkClient> {
  const client = new ClientV2(CLIENT_INFO);
  await client.connect(tap(new HttpV2(new URL(url)), log));
  clients.push(client);
  return {
    call: async (name, onprogress) => (await client.callTool({ name }, { onprogress })) as CallResult,
    close: () => client.close(),
  };
}

/** Serves `server` on 127.0.0.1 port 0 and records every HTTP request's method and headers. */
export async function serve(server: McpServer, options: ServeHttpOptions = {}) {
  const handle = await server.serveHttp(options);
  handles.push(handle);
  const requests: IncomingMessage[] = [];
  handle.server.on("request", (req: IncomingMessage) => void requests.push(req));
  return { handle, requests };
}

/** The events of a complete SSE body: `id` and parsed `data` of each event that has data. */
export function parseSse(text: string): { id?: string; retry?: number; data?: Message }[] {
  return text
    .split(/\n\n/)
    .filter((block) => block.trim() !== "" && !block.startsWith(":"))
    .map((block) => {
      const event: { id?: string; retry?: number; data?: Message } = {};
      for (const line of block.split("\n")) {
        const [field, ...rest] = line.split(":");
        const value = rest.join(":").replace(/^ /, "");
        if (field === "id") event.id = value;
        if (field === "retry") event.retry = Number(value);
        if (field === "data" && value !== "") event.data = JSON.parse(value);
      }
      return event;
    });
}
