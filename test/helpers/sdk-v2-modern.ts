/**
 * The official SDK v2 (`@modelcontextprotocol/client` / `@modelcontextprotocol/server` 2.4.0) in its
 * 2026-07-28 mode, for the interop tests of test/interop/modern*.test.ts:
 *
 * - `tapTransport` records every message an SDK client transport sends and receives in a `MessageLog`;
 * - `InPlaceStdioClientTransport`: the v2 stdio client transport, probing in place (the SDK runs the
 *   `server/discover` probe of the base class on a sibling process, whose messages no tap sees);
 * - `startV2Http` serves a v2 `McpServer` factory with `createMcpHandler` (2026-07-28, and stateless
 *   2025-era serving) on node:http; `V2_STDIO_SERVER` runs the same factory with `serveStdio` in a
 *   child process, which serves either era on one connection.
 *
 * The factory's tools: `echo` (returns its message) and `whoami` (asks the user's name with an
 * `inputRequired` elicitation; in 2025-era sessions the SDK's shim sends `elicitation/create`).
 */
import { fileURLToPath } from "node:url";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import {
  acceptedContent,
  createMcpHandler,
  inputRequired,
  type McpHttpHandler,
  McpServer,
} from "@modelcontextprotocol/server";
import { z } from "zod";
import { TestHttpServer, toWebRequest, writeWebResponse } from "./sdk-http-servers.js";
import type { MessageLog } from "./spec-schema.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** What the v2 servers here call themselves. */
export const V2_SERVER_INFO = { name: "sdk-v2-modern", version: "2.4.0" };

/**
 * The source of the factory, as JavaScript: evaluated in this process for HTTP and in a child process
 * for stdio, so both serve exactly the same server. Needs `McpServer`, `inputRequired`,
 * `acceptedContent` and `z` in scope.
 */
const FACTORY_SOURCE = `() => {
  const server = new McpServer(${JSON.stringify(V2_SERVER_INFO)});
  server.registerTool(
    "echo",
    { description: "Returns its message", inputSchema: z.object({ message: z.string() }) },
    async ({ message }) => ({ content: [{ type: "text", text: message }] }),
  );
  server.registerTool("whoami", { description: "Asks for the user's name", inputSchema: z.object({}) }, async (_args, ctx) => {
    const answer = acceptedContent(ctx.mcpReq.inputResponses, "name");
    if (!answer) {
      return inputRequired({
        inputRequests: {
          name: inputRequired.elicit({
            message: "What is your name?",
            requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
          }),
        },
      });
    }
    return { content: [{ type: "text", text: "Hello, " + answer.name } ] };
  });
  return server;
}`;

/** A fresh v2 server; `createMcpHandler` calls it once per HTTP request. */
export const v2Factory = new Function(
  "McpServer",
  "inputRequired",
  "acceptedContent",
  "z",
  `return ${FACTORY_SOURCE};`,
)(McpServer, inputRequired, acceptedContent, z) as () => McpServer;

/** Spawn parameters of the same factory served over stdio by `serveStdio` (both eras). */
export const V2_STDIO_SERVER = {
  command: process.execPath,
  args: [
    "--input-type=module",
    "-e",
    `import { McpServer, inputRequired, acceptedContent } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { z } from "zod";
serveStdio(${FACTORY_SOURCE});`,
  ],
  cwd: ROOT,
};

interface SdkTransport {
  send(message: unknown, options?: unknown): Promise<void>;
  onmessage?: ((message: never, extra?: never) => void) | undefined;
}

const TAPPED = Symbol("tapped");

/**
 * Records what an SDK client transport sends ("client") and delivers ("server"), in place: the
 * transport keeps its class, so the SDK treats it exactly as before (probe kind, headers, streams).
 */
export function tapTransport<T extends SdkTransport>(transport: T, log: MessageLog): T {
  const send = transport.send.bind(transport);
  transport.send = (message: unknown, options?: unknown) => {
    log.record("client", message);
    return send(message, options);
  };
  type Handler = ((message: unknown, extra?: unknown) => void) & { [TAPPED]?: true };
  let current: Handler | undefined;
  Object.defineProperty(transport, "onmessage", {
    configurable: true,
    enumerable: true,
    get: () => current,
    set: (handler: Handler | undefined) => {
      // The SDK saves and restores handlers around its probe: a recording handler is kept as it is.
      if (!handler || handler[TAPPED]) {
        current = handler;
        return;
      }
      const recording: Handler = (message, extra) => {
        log.record("server", message);
        handler(message, extra);
      };
      recording[TAPPED] = true;
      current = recording;
    },
  });
  return transport;
}

/**
 * The v2 stdio client transport, probing in place: the SDK probes on a sibling process only for
 * `StdioClientTransport` itself ("subclasses probe in place"), so every message passes the tap.
 */
export class InPlaceStdioClientTransport extends StdioClientTransport {}

/** A v2 `createMcpHandler` endpoint on node:http at `/mcp`; `close()` ends everything. */
export async function startV2Http(
  options: Parameters<typeof createMcpHandler>[1] = {},
): Promise<{ http: TestHttpServer; handler: McpHttpHandler; close(): Promise<void> }> {
  const handler = createMcpHandler(v2Factory, options);
  const http = new TestHttpServer(async (req, res) => {
    await writeWebResponse(await handler.fetch(await toWebRequest(req, res)), res);
  });
  await http.listen("/mcp");
  return {
    http,
    handler,
    async close() {
      await handler.close();
      await http.close();
    },
  };
}
