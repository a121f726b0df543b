import { WebExchange } from "../transports/http/server/adapters/web.js";
import { StreamableHttpHandler, type StreamableHttpOptions } from "../transports/http/server/handler.js";
import {
  type HttpServerHandle,
  type ListenHttpOptions,
  listenHttp,
} from "../transports/http/server/listen.js";
import { type ConnectSession, respondInternalError } from "../transports/http/shared/exchange.js";
import { bindPolicy } from "../transports/http/shared/origin.js";
import { LegacySseHandler, type LegacySseOptions } from "../transports/legacy-sse/server.js";

/** Options of `server.serveHttp`. */
export interface ServeHttpOptions extends Omit<ListenHttpOptions, "mount"> {
  /** Also serve the 2024-11-05 HTTP+SSE transport (`GET /sse`, `POST /messages`) for old clients. */
  legacySse?: boolean | LegacySseOptions;
}

/**
 * The HTTP side of `McpServer`, loaded only when a server is served over HTTP, so a stdio server
 * starts without it.
 */
export interface HttpHost {
  connect: ConnectSession;
  supportedVersions: readonly string[];
  paramHeaders: StreamableHttpOptions["paramHeaders"];
}

export function serveHttp(host: HttpHost, options: ServeHttpOptions): Promise<HttpServerHandle> {
  const { legacySse, ...listen } = options;
  const mount = legacySse
    ? new LegacySseHandler(host.connect, {
        ...bindPolicy(options.host ?? "127.0.0.1", options),
        ...(legacySse === true ? {} : legacySse),
      })
    : undefined;
  return listenHttp(host.connect, host.supportedVersions, {
    paramHeaders: host.paramHeaders,
    ...listen,
    mount,
  });
}

export function webHandler(
  host: HttpHost,
  options: StreamableHttpOptions | undefined,
): StreamableHttpHandler {
  return new StreamableHttpHandler(host.connect, host.supportedVersions, {
    paramHeaders: host.paramHeaders,
    ...options,
  });
}

/** Serves one web `Request` with a handler. */
export function handleRequest(handler: StreamableHttpHandler, request: Request): Promise<Response> {
  const exchange = new WebExchange(request);
  void handler.handle(exchange).catch((error: unknown) => respondInternalError(exchange, error));
  return exchange.response;
}
