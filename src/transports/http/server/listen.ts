import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type ConnectSession, type MountedRoutes, respondInternalError } from "../shared/exchange.js";
import { bindPolicy } from "../shared/origin.js";
import { NodeExchange } from "./adapters/node.js";
import { StreamableHttpHandler, type StreamableHttpOptions } from "./handler.js";

export interface ListenHttpOptions extends StreamableHttpOptions {
  /** Port to listen on; 0 (default) picks a free one. */
  port?: number;
  /** Address to bind; default 127.0.0.1. On loopback, Host and Origin default to localhost names. */
  host?: string;
  /** Path of the MCP endpoint; default `/mcp`. */
  path?: string;
  /** Routes served beside the endpoint, such as a `LegacySseHandler` for 2024-11-05 clients. */
  mount?: MountedRoutes;
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
  options: ListenHttpOptions = {},
): Promise<HttpServerHandle> {
  const host = options.host ?? "127.0.0.1";
  const path = options.path ?? "/mcp";
  const handler = new StreamableHttpHandler(connect, supportedVersions, {
    ...options,
    ...bindPolicy(host, options),
  });
  const mount = options.mount;

  const server = createServer((req, res) => {
    const exchange = new NodeExchange(req, res);
    const url = req.url ?? "/";
    const query = url.indexOf("?");
    const pathname = query === -1 ? url : url.slice(0, query);
    const done =
      pathname === path
        ? handler.handle(exchange)
        : (mount?.route(exchange, pathname) ??
          Promise.resolve(exchange.respond(404, { "content-type": "text/plain" }, "Not Found")));
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
      await Promise.all([handler.close(), mount?.close()]);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
