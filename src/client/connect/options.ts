import type { MessageTrace } from "../../protocol/engine/peer.js";
import type { ProtocolVersion } from "../../protocol/revisions/index.js";
import type { Transport } from "../../protocol/transport.js";
import type { Implementation } from "../../protocol/types/base.js";
import type { ClientCapabilities } from "../../protocol/types/lifecycle.js";
import type { ReconnectOptions } from "../../transports/http/client/stream.js";
import type { HeadersOption } from "../../transports/http/shared/request.js";
import type { HttpTransportKind } from "../../transports/kinds.js";
import type { StdioServerParameters } from "../../transports/stdio/client.js";
import type { OAuthOptions } from "../auth/options.js";
import type { OAuthSession } from "../auth/session.js";
import type { ClientExtension } from "../features/extension.js";
import type { ClientFeatures } from "../features/features.js";
import type { ClientMiddleware } from "../requests/middleware.js";
import type { ClientTaskOptions } from "../tasks/task-receiver.js";

/** Options every connection takes, whatever the transport. */
export interface CommonClientOptions extends ClientFeatures {
  /** How the client names itself; default `mcpkit`. */
  clientInfo?: Implementation;
  /** Extra capabilities to declare. */
  capabilities?: ClientCapabilities;
  /** Extensions the client speaks: each is declared as `capabilities.extensions[id]`. */
  extensions?: readonly ClientExtension[];
  /**
   * Whether to declare the tasks extension (`io.modelcontextprotocol/tasks`): a tool call the
   * server answers with a task is then polled to its end. Default true.
   */
  tasks?: boolean;
  /**
   * Client-side tasks (2025-11-25 sessions): the server may ask for a `sampling/createMessage` or
   * `elicitation/create` to run as a task, which the `sampling` and `elicitation` handlers answer
   * as they answer any other; the server polls it (`tasks/get`, `tasks/result`), lists it and may
   * cancel it. Declared as `capabilities.tasks` for the handlers given. Default off.
   */
  clientTasks?: boolean | ClientTaskOptions;
  /**
   * The protocol version to speak, pinned: a stateless pin never falls back to the handshake, a
   * handshake pin never probes. Default: the newest the server speaks. An unknown version is an
   * error at connect.
   */
  protocolVersion?: ProtocolVersion;
  /**
   * Milliseconds connecting may take, the stateless probe (`server/discover`) and the `initialize`
   * handshake together; default 30 s.
   */
  handshakeTimeout?: number;
  /**
   * The probe's share of `handshakeTimeout`: how long a silent server is given to answer
   * `server/discover` before the client tries `initialize`. Default 5 s, at most half the budget.
   * Unused when `protocolVersion` pins a revision (a stateless pin waits the whole budget).
   */
  probeTimeout?: number;
  /** Default per-request timeout in ms; default 60 s. */
  requestTimeout?: number;
  /** Sees every message sent and received. */
  trace?: MessageTrace;
  /** Middlewares around every request sent after connecting, as `client.use(mw)` adds them. */
  middleware?: readonly ClientMiddleware[];
}

/** Connect over any transport you built. */
export interface TransportClientOptions extends CommonClientOptions {
  transport: Transport;
}

/** Spawn a server and talk to it over stdio. */
export interface StdioClientOptions extends CommonClientOptions, StdioServerParameters {}

/**
 * Reach a server over HTTP. Without `transport`, Streamable HTTP is tried first and, if the server
 * answers the `initialize` POST with a 4xx status, the legacy HTTP+SSE transport at the same URL.
 */
export interface HttpClientOptions extends CommonClientOptions {
  url: string | URL;
  /** Sent with every request, including the GET stream; a function is called for each request. */
  headers?: HeadersOption;
  /** Force one transport instead of trying Streamable HTTP, then legacy SSE. */
  transport?: HttpTransportKind;
  /** Send through this `fetch` instead of the built-in `node:http` client with keep-alive. */
  fetch?: typeof fetch;
  /** How lost SSE streams are resumed (Streamable HTTP). */
  reconnect?: ReconnectOptions;
  /** How long the legacy SSE transport waits for the `endpoint` event; default 30 s. */
  endpointTimeout?: number;
  /**
   * Longest JSON response body accepted from the server (Streamable HTTP), in bytes: a longer one
   * is dropped unparsed and its request fails. Default: none.
   */
  maxMessageBytes?: number;
  /**
   * OAuth 2.1 for a protected server: on `401` the client discovers the authorization server,
   * authorizes (see `OAuthOptions`) and sends the request again with the token. `{}` takes every
   * default; an `OAuthSession` shares its tokens with other connections.
   */
  auth?: OAuthOptions | OAuthSession;
}

export type ClientOptions = StdioClientOptions | TransportClientOptions | HttpClientOptions;
