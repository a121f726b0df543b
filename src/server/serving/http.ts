import { WebExchange } from "../../transports/http/server/adapters/web.js";
import { StreamableHttpHandler, type StreamableHttpOptions } from "../../transports/http/server/handler.js";
import {
  type HttpServerHandle,
  type ListenHttpOptions,
  listenHttp,
} from "../../transports/http/server/listen.js";
import {
  type ConnectSession,
  type MountedRoutes,
  respondInternalError,
} from "../../transports/http/shared/exchange.js";
import { bindPolicy } from "../../transports/http/shared/origin.js";
import { LegacySseHandler, type LegacySseOptions } from "../../transports/legacy-sse/server.js";
import type { ProtectedResourceOptions, ProtectedScopes, ResourceServer } from "../auth/resource-server.js";
import type { Replication } from "../sessions/stores.js";

/** What protects an HTTP endpoint: a resource server, or the options to make one. */
export type AuthOption = ProtectedResourceOptions | ResourceServer;

/** Options of `server.serveHttp`. */
export interface ServeHttpOptions extends Omit<ListenHttpOptions, "mount" | "auth"> {
  /** Also serve the 2024-11-05 HTTP+SSE transport (`GET /sse`, `POST /messages`) for old clients. */
  legacySse?: boolean | LegacySseOptions;
  /**
   * Require an access token of every request, on every transport served (MCP authorization): the
   * protected-resource metadata is served at its well-known URLs, and `resource` defaults to the
   * endpoint's URL.
   */
  auth?: AuthOption;
}

/** Options of the web handler `server.fetch`. */
export interface WebHandlerOptions extends Omit<StreamableHttpOptions, "auth"> {
  /**
   * Require an access token of every request (give its `resource`, the public URL of the
   * endpoint). Requests for the metadata's well-known paths are answered too: route
   * `/.well-known/oauth-protected-resource/*` to `server.fetch` as well.
   */
  auth?: AuthOption;
}

/**
 * The HTTP side of `McpServer`, loaded only when a server is served over HTTP, so a stdio server
 * starts without it.
 */
export interface HttpHost {
  connect: ConnectSession;
  supportedVersions: readonly string[];
  paramHeaders: StreamableHttpOptions["paramHeaders"];
  /** The scopes of the server's tools, resources and prompts, for its resource server. */
  scopes: ProtectedScopes;
  /** Serves as one of the replicas sharing `replication`. */
  replicate(replication: Replication): Promise<void>;
}

export async function serveHttp(host: HttpHost, options: ServeHttpOptions): Promise<HttpServerHandle> {
  const { legacySse, auth, ...listen } = options;
  if (options.replication) await host.replicate(options.replication);
  const resourceServer = auth && (await resourceServerOf(auth, host));
  const sse = legacySse
    ? new LegacySseHandler(host.connect, {
        ...bindPolicy(options.host ?? "127.0.0.1", options),
        maxStreamBuffer: options.maxStreamBuffer,
        onWarning: options.onWarning,
        ...(legacySse === true ? {} : legacySse),
        ...(resourceServer ? { auth: resourceServer } : {}),
      })
    : undefined;
  const handle = await listenHttp(host.connect, host.supportedVersions, {
    paramHeaders: host.paramHeaders,
    ...listen,
    auth: resourceServer,
    mount: mountAll([resourceServer?.routes, sse]),
  });
  if (resourceServer) {
    try {
      resourceServer.useResource(handle.url);
    } catch (error) {
      await handle.close();
      throw error;
    }
  }
  return handle;
}

/** The web handler `server.fetch` serves with, and the metadata routes beside it. */
export interface WebEndpoint {
  readonly handler: StreamableHttpHandler;
  readonly routes: MountedRoutes | undefined;
}

export async function webEndpoint(
  host: HttpHost,
  options: WebHandlerOptions | undefined,
): Promise<WebEndpoint> {
  const { auth, ...rest } = options ?? {};
  if (rest.replication) await host.replicate(rest.replication);
  const resourceServer = auth && (await resourceServerOf(auth, host));
  // Known now: a web handler cannot learn its public URL from where it listens.
  if (resourceServer) void resourceServer.resource;
  const handler = new StreamableHttpHandler(host.connect, host.supportedVersions, {
    paramHeaders: host.paramHeaders,
    ...rest,
    auth: resourceServer,
  });
  return { handler, routes: resourceServer?.routes };
}

/** Serves one web `Request`: the metadata's well-known paths, else the MCP endpoint. */
export function handleRequest(endpoint: WebEndpoint, request: Request): Promise<Response> {
  const exchange = new WebExchange(request);
  const pathname = new URL(request.url).pathname;
  const done = endpoint.routes?.route(exchange, pathname) ?? endpoint.handler.handle(exchange);
  void done.catch((error: unknown) => respondInternalError(exchange, error));
  return exchange.response;
}

/** The resource server of `auth`; its code (and `jose`) loads only for a server that has one. */
async function resourceServerOf(auth: AuthOption, host: HttpHost): Promise<ResourceServer> {
  if ("authenticate" in auth) {
    auth.useScopes(host.scopes);
    return auth;
  }
  const { ResourceServer } = await import("../auth/resource-server.js");
  return new ResourceServer(auth, host.scopes);
}

/** Several route sets served beside one endpoint, the first that owns a path answering it. */
function mountAll(all: (MountedRoutes | undefined)[]): MountedRoutes | undefined {
  const routes = all.filter((entry): entry is MountedRoutes => entry !== undefined);
  if (routes.length <= 1) return routes[0];
  return {
    route(exchange, pathname) {
      for (const entry of routes) {
        const done = entry.route(exchange, pathname);
        if (done) return done;
      }
      return undefined;
    },
    async close() {
      await Promise.all(routes.map((entry) => entry.close()));
    },
  };
}
