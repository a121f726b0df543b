import type { MessageTrace } from "../../protocol/engine/peer.js";
import type { Transport } from "../../protocol/transport.js";
import type { HttpServerHandle } from "../../transports/http/server/listen.js";
import { StdioServerTransport, type StdioServerTransportOptions } from "../../transports/stdio/server.js";
import type { ServerHost } from "../dispatch/server-host.js";
import type { Registries } from "../registries/registries.js";
import { ServerSession } from "../sessions/session.js";
import type { Sessions } from "../sessions/sessions.js";
import type { Replication } from "../sessions/stores.js";
import type { HttpHost, ServeHttpOptions, WebEndpoint, WebHandlerOptions } from "./http.js";

/** How a server's sessions are opened, and its web handler configured (see `ServerOptions`). */
interface ServingOptions {
  requestTimeout?: number;
  trace?: MessageTrace;
  http?: WebHandlerOptions;
}

/**
 * The ways a server is served: one transport per session (`connect`), this process's stdio, HTTP
 * on `node:http`, or a web-standard handler; and as one of several replicas. The HTTP code loads
 * only for a server served over HTTP, so a stdio server starts without it.
 */
export class Serving {
  private webEndpoint: Promise<WebEndpoint> | undefined;

  constructor(
    private readonly host: ServerHost,
    private readonly registries: Registries,
    private readonly sessions: Sessions,
    private readonly options: ServingOptions,
  ) {}

  /** Serves one client over `transport`; `assumeVersion` serves without a handshake. */
  async connect(transport: Transport, init: { assumeVersion?: string } = {}): Promise<ServerSession> {
    const session = new ServerSession(this.host, transport, {
      requestTimeout: this.options.requestTimeout,
      trace: this.options.trace,
      assumeVersion: init.assumeVersion,
    });
    await session.start();
    return session;
  }

  /** Serves over this process's stdin/stdout; unless `exitOnClose` is false, the process exits with it. */
  async serveStdio(
    options: StdioServerTransportOptions & { exitOnClose?: boolean } = {},
  ): Promise<ServerSession> {
    const { exitOnClose = true, ...transportOptions } = options;
    const session = await this.connect(new StdioServerTransport(transportOptions));
    if (exitOnClose) session.peer.onClose(() => process.exit(0));
    return session;
  }

  async serveHttp(options: ServeHttpOptions): Promise<HttpServerHandle> {
    const http = await import("./http.js");
    return http.serveHttp(this.httpHost(), options);
  }

  async fetch(request: Request): Promise<Response> {
    const http = await import("./http.js");
    this.webEndpoint ??= http.webEndpoint(this.httpHost(), this.options.http);
    return http.handleRequest(await this.webEndpoint, request);
  }

  /** Ends the web handler, if one was made. */
  async close(): Promise<void> {
    const endpoint = await this.webEndpoint?.catch(() => undefined);
    await endpoint?.handler.close();
  }

  /**
   * Serves as one of the replicas sharing `replication`: multi round-trip state signed with the key
   * they share, and server-wide notifications raised here reaching the sessions of every replica.
   */
  private async replicate(replication: Replication): Promise<void> {
    if (replication.requestStateSecret !== undefined)
      this.host.shareRequestStateSecret(replication.requestStateSecret);
    await this.sessions.replicate(replication.bus);
  }

  private httpHost(): HttpHost {
    const { host, registries } = this;
    return {
      connect: (transport, init) => this.connect(transport, init).then(() => {}),
      supportedVersions: host.supportedVersions,
      paramHeaders: (tool) => registries.tools.paramHeaders(tool),
      scopes: {
        requiredScopes: (message) => host.requiredScopes(message),
        declaredScopes: () => registries.declaredScopes(),
      },
      replicate: (replication) => this.replicate(replication),
    };
  }
}
