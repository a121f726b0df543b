import { respondInternalError } from "../transports/http/server/exchange.js";
import {
  type ConnectSession,
  StreamableHttpHandler,
  type StreamableHttpOptions,
} from "../transports/http/server/handler.js";
import {
  type HttpServerHandle,
  listenHttp,
  type ServeHttpOptions,
} from "../transports/http/server/listen.js";
import { WebExchange } from "../transports/http/server/web.js";

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
  return listenHttp(host.connect, host.supportedVersions, { paramHeaders: host.paramHeaders, ...options });
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
