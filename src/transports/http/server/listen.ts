import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { LegacySseHandler, type LegacySseOptions } from "../../sse/server.js";
import { respondInternalError } from "./exchange.js";
import type { ConnectSession, StreamableHttpOptions } from "./handler.js";
import { StreamableHttpHandler } from "./handler.js";
import { NodeExchange } from "./node.js";
import { isLoopback, LOCALHOST_NAMES } from "./origin.js";

export interface ServeHttpOptions extends StreamableHttpOptions {
  /** Port to listen on; 0 (default) picks a free one. */
  port?: number;
  /** Address to bind; default 127.0.0.1. On loopback, Host and Origin default to localhost names. */
  host?: string;
  /** Path of the MCP endpoint; default `/mcp`. */
  path?: string;
  /** Also serve the 2024-11-05 HTTP+SSE transport (`GET /sse`, `POST /messages`) for old clients. */
  legacySse?: boolean | (LegacySseOptions & { path?: string });
}

/** A running HTTP server. */
export interface HttpServerHandle {
  /** The MCP endpoint's URL. */
  readonly url: string;
  readonly port: number;
  readonly server: Server;
  readonly handler: StreamableHttpHandler;
  /** Ends every session and connection, then stops listening. */
  close(): Promise<void>;
}

/** Serves the MCP endpoint on `node:http`, passing node's objects straight to the handler. */
export async function listenHttp(
  connect: ConnectSession,
  supportedVersions: readonly string[],
  options: ServeHttpOptions = {},
): Promise<HttpServerHandle> {
  const host = options.host ?? "127.0.0.1";
  const path = options.path ?? "/mcp";
  const local = isLoopback(host);
  const policy = {
    allowedHosts: options.allowedHosts ?? (local ? LOCALHOST_NAMES : undefined),
    allowedOrigins: options.allowedOrigins ?? (local ? LOCALHOST_NAMES : undefined),
  };
  const handler = new StreamableHttpHandler(connect, supportedVersions, { ...options, ...policy });
  const legacyOptions = typeof options.legacySse === "object" ? options.legacySse : {};
  const legacy = options.legacySse
    ? new LegacySseHandler(connect, { ...policy, ...legacyOptions })
    : undefined;
  const ssePath = legacyOptions.path ?? "/sse";

  const server = createServer((req, res) => {
    const exchange = new NodeExchange(req, res);
    const url = req.url ?? "/";
    const query = url.indexOf("?");
    const pathname = query === -1 ? url : url.slice(0, query);
    let done: Promise<void>;
    if (pathname === path) done = handler.handle(exchange);
    else if (legacy && pathname === ssePath && req.method === "GET") done = legacy.openStream(exchange);
    else if (legacy && pathname === legacy.messagesPath && req.method === "POST")
      done = legacy.post(exchange);
    else done = Promise.resolve(exchange.respond(404, { "content-type": "text/plain" }, "Not Found"));
    done.catch((error: unknown) => respondInternalError(exchange, error));
  });
  // Streams are long-lived; node's default request timeout would cut them.
  server.requestTimeout = 0;
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}${path}`,
    port,
    server,
    handler,
    async close() {
      await Promise.all([handler.close(), legacy?.close()]);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
