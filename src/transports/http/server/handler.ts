import { randomBytes } from "node:crypto";
import { ErrorCode } from "../../../jsonrpc/errors.js";
import { MessageParser } from "../../../jsonrpc/message-parser.js";
import type { JSONRPCMessage, RequestId } from "../../../jsonrpc/messages.js";
import { speaksModern } from "../../../protocol/eras/modern.js";
import { revisionOf } from "../../../protocol/revisions/index.js";
import type { AuthInfo } from "../../../protocol/transport.js";
import { type HttpAuthHooks, isRefusal, principalOf } from "../shared/authenticate.js";
import type { ConnectSession, HttpExchange } from "../shared/exchange.js";
import { originProblem } from "../shared/origin.js";
import { type StreamBuffer, streamBuffer } from "../shared/stream-buffer.js";
import { type EventStore, MemoryEventStore } from "./event-store.js";
import { type StreamableHttpOptions, streamOptionsOf } from "./options.js";
import { batchProblem, readMessage } from "./read-message.js";
import { ReplicaSessions } from "./replica-sessions.js";
import {
  DELETE_RULES,
  GET_RULES,
  noSessions,
  POST_RULES,
  refuse,
  refused,
  reply,
  unsupportedHeader,
} from "./replies.js";
import { OpenSessions } from "./session-store.js";
import { HttpSessionTransport } from "./session-transport.js";
import { StatelessRequests } from "./stateless-requests.js";
import type { StreamOptions } from "./stream.js";

export type { StreamableHttpOptions } from "./options.js";

/** What a request answered without waiting returns. */
const DONE: Promise<void> = Promise.resolve();

/** The version a request without `MCP-Protocol-Version` is assumed to speak, as the spec says. */
const DEFAULT_HEADER_VERSION = "2025-03-26";

/**
 * The MCP endpoint of the Streamable HTTP transport, independent of the HTTP server it is
 * mounted in: it checks each request, then routes it to its session, to a new one, or to the
 * stateless transport.
 */
export class StreamableHttpHandler {
  private readonly sessions: OpenSessions;
  /** The sessions shared with the other replicas, when serving as one of several. */
  private readonly replicas: ReplicaSessions | undefined;
  private readonly eventStore: EventStore | undefined;
  /** Serves stateless (2026-07-28) requests. */
  private readonly stateless: StatelessRequests;
  /** Parses request bodies: a stateless client repeats its `_meta` in every one. */
  private readonly parser = new MessageParser();
  private readonly maxStreamBuffer: StreamBuffer;

  constructor(
    private readonly connect: ConnectSession,
    private readonly supportedVersions: readonly string[],
    private readonly options: StreamableHttpOptions = {},
  ) {
    this.maxStreamBuffer = streamBuffer(options.maxStreamBuffer);
    this.stateless = new StatelessRequests(connect, supportedVersions, options.paramHeaders, () =>
      this.streamOptions(undefined),
    );
    const replication = options.sessionless ? undefined : options.replication;
    this.eventStore =
      options.eventStore === false
        ? undefined
        : (options.eventStore ?? replication?.events ?? new MemoryEventStore());
    this.sessions = new OpenSessions(
      replication?.sessions.idleTimeout ?? options.sessionIdleTimeout ?? 30 * 60_000,
      options.maxSessions ?? 10_000,
      replication?.sessions,
    );
    this.replicas =
      replication &&
      new ReplicaSessions(replication, this.sessions, connect, (sessionId) => this.streamOptions(sessionId));
  }

  /** How many sessions are open. */
  get sessionCount(): number {
    return this.sessions.size;
  }

  handle(exchange: HttpExchange): Promise<void> {
    try {
      const forbidden = originProblem(exchange, this.options);
      if (forbidden) {
        reply(exchange, 403, ErrorCode.ServerError, `Forbidden: ${forbidden}`);
        return DONE;
      }
      // Without credentials to check, the request is routed at once rather than in another async step.
      const hooks = this.options.auth;
      return hooks ? this.authenticated(exchange, hooks) : this.route(exchange, undefined);
    } catch (error) {
      // As from an async function: the caller answers 500.
      return Promise.reject(error);
    }
  }

  private async authenticated(exchange: HttpExchange, hooks: HttpAuthHooks): Promise<void> {
    const verified = await hooks.authenticate(exchange);
    if (isRefusal(verified)) return refuse(exchange, verified);
    return this.route(exchange, verified);
  }

  private route(exchange: HttpExchange, auth: AuthInfo | undefined): Promise<void> {
    switch (exchange.method) {
      case "POST":
        return this.post(exchange, auth);
      case "GET":
        return this.get(exchange, auth);
      case "DELETE":
        return this.delete(exchange, auth);
      default:
        reply(exchange, 405, ErrorCode.ServerError, `Method not allowed: ${exchange.method}`, {
          allow: this.keepsSessions ? "GET, POST, DELETE" : "POST",
        });
        return DONE;
    }
  }

  /** Ends every session. */
  async close(): Promise<void> {
    await Promise.all([this.sessions.close(), this.stateless.close()]);
  }

  private async post(exchange: HttpExchange, auth: AuthInfo | undefined): Promise<void> {
    if (refused(exchange, POST_RULES)) return;
    const version = exchange.header("mcp-protocol-version");
    const read = await readMessage(exchange, this.parser, this.options);
    if (read === undefined) return;
    if (Array.isArray(read)) return this.postBatch(exchange, read, version, auth);
    const message = read;
    const forbidden = auth && this.options.auth?.authorize?.(message, auth);
    if (forbidden) return refuse(exchange, forbidden, (message as { id?: RequestId }).id);
    if (isModernMessage(message, version)) return this.stateless.post(exchange, message, version, auth);
    if (version !== undefined && !this.supportedVersions.includes(version)) {
      return reply(
        exchange,
        400,
        ErrorCode.InvalidRequest,
        unsupportedHeader(version, this.supportedVersions),
      );
    }
    const ids: RequestId[] = "method" in message && "id" in message ? [message.id] : [];
    const isInitialize = "method" in message && message.method === "initialize";
    if (this.options.sessionless) {
      const assumeVersion = isInitialize ? undefined : (version ?? DEFAULT_HEADER_VERSION);
      return this.serveSessionless(exchange, [message], ids, false, auth, assumeVersion);
    }
    if (isInitialize) {
      if (exchange.header("mcp-session-id") !== undefined) {
        const why =
          "Bad Request: initialize starts a session; it cannot be sent on one (drop Mcp-Session-Id)";
        return reply(exchange, 400, ErrorCode.InvalidRequest, why, undefined, ids[0]);
      }
      if (this.sessions.full) {
        const why = `Service Unavailable: ${this.sessions.maxSessions} sessions are open, the most this server allows (maxSessions)`;
        return reply(exchange, 503, ErrorCode.ServerError, why, { "retry-after": "60" }, ids[0]);
      }
      const sessionId = randomBytes(16).toString("base64url");
      const principal = this.principal(exchange, auth);
      const replicas = this.replicas;
      let transport: HttpSessionTransport;
      if (replicas) {
        const created = await replicas.create(exchange, sessionId, principal, ids[0]);
        if (created === undefined) return;
        transport = created;
      } else {
        transport = new HttpSessionTransport(sessionId, this.streamOptions(sessionId));
      }
      this.sessions.add(sessionId, transport, principal);
      await this.connect(transport, {});
      transport.receive(exchange, [message], ids, false, auth);
      return;
    }
    const session = this.sessionOf(exchange, auth, ids[0]);
    (session instanceof Promise ? await session : session)?.receive(exchange, [message], ids, false, auth);
  }

  /**
   * A JSON-RPC batch, which 2025-03-26 alone requires servers to accept (a POST without the version
   * header speaks it): its messages go to the session as one POST, answered with the array of the
   * responses (or an event stream of them). A batch with a malformed message, or `initialize`, runs
   * nothing and is answered 400.
   */
  private async postBatch(
    exchange: HttpExchange,
    batch: unknown[],
    header: string | undefined,
    auth: AuthInfo | undefined,
  ) {
    const version = header ?? DEFAULT_HEADER_VERSION;
    const problem = revisionOf(version)?.batches
      ? batchProblem(batch)
      : `JSON-RPC batches are not accepted in protocol version ${version}`;
    if (problem !== undefined)
      return reply(exchange, 400, ErrorCode.InvalidRequest, `Invalid request: ${problem}`, undefined, null);
    const messages = batch as JSONRPCMessage[];
    // A batch runs whole or not at all: one message the caller may not send refuses it.
    if (auth) {
      for (const message of messages) {
        const forbidden = this.options.auth?.authorize?.(message, auth);
        if (forbidden) return refuse(exchange, forbidden);
      }
    }
    const ids = messages.flatMap((m) => ("method" in m && "id" in m ? [m.id] : []));
    if (this.options.sessionless) return this.serveSessionless(exchange, messages, ids, true, auth, version);
    (await this.sessionOf(exchange, auth))?.receive(exchange, messages, ids, true, auth);
  }

  /**
   * Serves one POST on a session of its own that ends with it (`sessionless`), speaking
   * `assumeVersion` without a handshake unless it is the `initialize` (then `undefined`).
   */
  private async serveSessionless(
    exchange: HttpExchange,
    messages: JSONRPCMessage[],
    ids: RequestId[],
    batch: boolean,
    auth: AuthInfo | undefined,
    assumeVersion: string | undefined,
  ): Promise<void> {
    const transport = new HttpSessionTransport(undefined, this.streamOptions(undefined));
    await this.connect(transport, assumeVersion === undefined ? {} : { assumeVersion });
    transport.receive(exchange, messages, ids, batch, auth);
    if (ids.length === 0) await transport.close();
  }

  /** Whether the endpoint can have sessions: not when sessionless, nor when it speaks only 2026-07-28. */
  private get keepsSessions(): boolean {
    return !this.options.sessionless && this.supportedVersions.some((v) => revisionOf(v)?.headers.sessionId);
  }

  private async get(exchange: HttpExchange, auth: AuthInfo | undefined): Promise<void> {
    if (!this.keepsSessions) return noSessions(exchange);
    if (refused(exchange, GET_RULES)) return;
    if (this.headerVersion(exchange) === null) return;
    const transport = await this.sessionOf(exchange, auth);
    if (transport) await transport.openGet(exchange, exchange.header("last-event-id"));
  }

  private async delete(exchange: HttpExchange, auth: AuthInfo | undefined): Promise<void> {
    if (!this.keepsSessions) return noSessions(exchange);
    if (refused(exchange, DELETE_RULES)) return;
    const transport = await this.sessionOf(exchange, auth);
    if (!transport) return;
    if (this.replicas && !(await this.replicas.end(exchange, transport))) return;
    this.sessions.delete(transport.sessionId!);
    await transport.close();
    exchange.respond(200, {});
  }

  /**
   * The request's session, or `undefined` after answering 400, 404, or 503 (the shared store cannot
   * be reached). A session another replica opened is joined first: its state is read from the store.
   */
  private sessionOf(
    exchange: HttpExchange,
    auth: AuthInfo | undefined,
    id?: RequestId,
  ): HttpSessionTransport | undefined | Promise<HttpSessionTransport | undefined> {
    const sessionId = exchange.header("mcp-session-id");
    if (this.replicas && sessionId !== undefined && !this.sessions.has(sessionId)) {
      return this.replicas
        .join(exchange, sessionId, id)
        .then((joined) => (joined ? this.sessions.of(exchange, this.principal(exchange, auth)) : undefined));
    }
    // A session held here is found without an async step.
    return this.sessions.of(exchange, this.principal(exchange, auth));
  }

  /** Whom a request's sessions are bound to: the verified caller, else what `principalOf` says. */
  private principal(exchange: HttpExchange, auth: AuthInfo | undefined): string | undefined {
    return auth ? principalOf(auth) : this.options.principalOf?.(exchange);
  }

  /** The `MCP-Protocol-Version` header: its value, `undefined` if absent, `null` after answering 400. */
  private headerVersion(exchange: HttpExchange): string | undefined | null {
    const version = exchange.header("mcp-protocol-version");
    if (version === undefined || this.supportedVersions.includes(version)) return version;
    reply(exchange, 400, ErrorCode.InvalidRequest, unsupportedHeader(version, this.supportedVersions));
    return null;
  }

  private streamOptions(sessionId: string | undefined): StreamOptions {
    return streamOptionsOf(this.options, this.eventStore, this.maxStreamBuffer, sessionId);
  }
}

/** Whether a POST speaks the stateless era: by its version header, its `_meta`, or a method only it has. */
function isModernMessage(message: JSONRPCMessage, headerVersion: string | undefined): boolean {
  if (headerVersion !== undefined && revisionOf(headerVersion)?.headers.versionPerRequest) return true;
  return "method" in message && speaksModern(message.method, message.params);
}
