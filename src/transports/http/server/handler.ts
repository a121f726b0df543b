import { randomBytes } from "node:crypto";
import { ErrorCode, McpError } from "../../../jsonrpc/errors.js";
import { MessageParser } from "../../../jsonrpc/message-parser.js";
import {
  isRequestId,
  type JSONRPCMessage,
  messageProblem,
  type RequestId,
} from "../../../jsonrpc/messages.js";
import { speaksModern } from "../../../protocol/eras/modern.js";
import { readRequestMeta, unsupportedVersion } from "../../../protocol/eras/request-meta.js";
import { revisionOf } from "../../../protocol/revisions/index.js";
import type { AuthInfo, CheckedMessage } from "../../../protocol/transport.js";
import type { RequestMeta } from "../../../protocol/types/lifecycle.js";
import { type HttpAuthHooks, type HttpRefusal, isRefusal, principalOf } from "../shared/authenticate.js";
import {
  BodyTimeoutError,
  BodyTooLargeError,
  type ConnectSession,
  type HttpExchange,
} from "../shared/exchange.js";
import { type OriginPolicy, originProblem } from "../shared/origin.js";
import { type EventStore, MemoryEventStore } from "./event-store.js";
import { modernErrorStatus, modernHeaderProblem, type ParamHeaders } from "./modern-headers.js";
import type { Replication } from "./replication.js";
import {
  DELETE_RULES,
  GET_RULES,
  POST_RULES,
  refused,
  reply,
  replyError,
  unsupportedHeader,
} from "./replies.js";
import { OpenSessions } from "./session-store.js";
import { HttpSessionTransport, type ResponseMode } from "./session-transport.js";
import { StatelessTransport } from "./stateless-transport.js";

/** Options of the Streamable HTTP endpoint. */
export interface StreamableHttpOptions extends OriginPolicy {
  /** No sessions: every POST is served on its own, GET and DELETE answer 405. */
  stateless?: boolean;
  /** `auto` (default): JSON, or SSE as soon as a request sends something before its response. */
  responseMode?: ResponseMode;
  /** Where stream events are kept for `Last-Event-ID` resumption; `false` disables it. Default in memory. */
  eventStore?: EventStore | false;
  /** Sent as the SSE `retry` field: how soon a client should come back to a closed stream, in ms. Default 1000. */
  retryInterval?: number;
  /** Comment lines on idle streams, in ms; 0 disables. Default 15 s. */
  keepAliveInterval?: number;
  /** A session unused this long ends, in ms. Default 30 minutes. */
  sessionIdleTimeout?: number;
  /** The most sessions (each with at most one GET stream) open at once; one more is 503. Default 10,000. */
  maxSessions?: number;
  /** Largest request body, in bytes. Default 4 MiB. */
  maxBodySize?: number;
  /**
   * How long a request body may take to arrive, in ms; a slower one is answered 408 and its
   * connection closed. Default 30 s; 0 disables. Responses (event streams) are not limited.
   */
  bodyTimeout?: number;
  /** Who makes the request (from its credentials); a session stays bound to whoever opened it. */
  principalOf?: (exchange: HttpExchange) => string | undefined;
  /**
   * Checks every request's credentials before anything else, and each message against what the
   * caller may do (a protected resource, see `mcpkit/server`'s `auth`). The verified caller is bound
   * to the sessions it opens (in place of `principalOf`) and reaches handlers as `ctx.auth`.
   */
  auth?: HttpAuthHooks;
  /** For each tool, the `Mcp-Param-*` headers its arguments are mirrored in (2026-07-28). */
  paramHeaders?: ParamHeaders;
  /**
   * Serve as one of several interchangeable replicas: sessions, stream events and messages between
   * replicas are kept in these shared stores (see `mcpkit/redis`), so any replica serves any request.
   */
  replication?: Replication;
}

/** The version a request without `MCP-Protocol-Version` is assumed to speak, as the spec says. */
const DEFAULT_HEADER_VERSION = "2025-03-26";

/**
 * The MCP endpoint of the Streamable HTTP transport, independent of the HTTP server it is
 * mounted in: it checks each request, then routes it to its session, to a new one, or to the
 * stateless transport.
 */
export class StreamableHttpHandler {
  private readonly sessions: OpenSessions;
  private readonly replication: Replication | undefined;
  /** Sessions other replicas opened, being joined by this one. */
  private readonly joining = new Map<string, Promise<void>>();
  private readonly eventStore: EventStore | undefined;
  /** Serves stateless (2026-07-28) requests, once one came. */
  private stateless: StatelessTransport | undefined;
  private statelessOpening: Promise<StatelessTransport> | undefined;
  /** Parses request bodies: a stateless client repeats its `_meta` in every one. */
  private readonly parser = new MessageParser();

  constructor(
    private readonly connect: ConnectSession,
    private readonly supportedVersions: readonly string[],
    private readonly options: StreamableHttpOptions = {},
  ) {
    this.replication = options.stateless ? undefined : options.replication;
    this.eventStore =
      options.eventStore === false
        ? undefined
        : (options.eventStore ?? this.replication?.events ?? new MemoryEventStore());
    this.sessions = new OpenSessions(
      this.replication?.sessions.idleTimeout ?? options.sessionIdleTimeout ?? 30 * 60_000,
      options.maxSessions ?? 10_000,
      this.replication?.sessions,
    );
  }

  /** How many sessions are open. */
  get sessionCount(): number {
    return this.sessions.size;
  }

  async handle(exchange: HttpExchange): Promise<void> {
    const forbidden = originProblem(exchange, this.options);
    if (forbidden) return reply(exchange, 403, ErrorCode.ServerError, `Forbidden: ${forbidden}`);
    let auth: AuthInfo | undefined;
    if (this.options.auth) {
      const verified = await this.options.auth.authenticate(exchange);
      if (isRefusal(verified)) return refuse(exchange, verified);
      auth = verified;
    }
    switch (exchange.method) {
      case "POST":
        return this.post(exchange, auth);
      case "GET":
        return this.get(exchange, auth);
      case "DELETE":
        return this.delete(exchange, auth);
      default:
        return reply(exchange, 405, ErrorCode.ServerError, `Method not allowed: ${exchange.method}`, {
          allow: this.keepsSessions ? "GET, POST, DELETE" : "POST",
        });
    }
  }

  /** Ends every session. */
  async close(): Promise<void> {
    const stateless = this.stateless;
    this.stateless = undefined;
    this.statelessOpening = undefined;
    await Promise.all([this.sessions.close(), stateless?.close()]);
  }

  private async post(exchange: HttpExchange, auth: AuthInfo | undefined): Promise<void> {
    if (refused(exchange, POST_RULES)) return;
    const version = exchange.header("mcp-protocol-version");
    const read = await this.readMessage(exchange);
    if (read === undefined) return;
    if (Array.isArray(read)) return this.postBatch(exchange, read, version, auth);
    const message = read;
    const forbidden = auth && this.options.auth?.authorize?.(message, auth);
    if (forbidden) return refuse(exchange, forbidden, (message as { id?: RequestId }).id);
    if (isModernMessage(message, version)) return this.postModern(exchange, message, version, auth);
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
    if (this.options.stateless) {
      const transport = new HttpSessionTransport(undefined, this.streamOptions(undefined, true));
      await this.connect(transport, isInitialize ? {} : { assumeVersion: version ?? DEFAULT_HEADER_VERSION });
      transport.receive(exchange, [message], ids, false, auth);
      if (ids.length === 0) await transport.close();
      return;
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
      const replication = this.replication;
      const transport = new HttpSessionTransport(
        sessionId,
        this.streamOptions(sessionId, false),
        replication && { replication, restored: undefined },
      );
      if (replication) {
        try {
          await replication.sessions.create(sessionId, principal);
          await transport.link!.start();
        } catch (error) {
          transport.link!.close();
          return unavailable(exchange, error, ids[0]);
        }
      }
      this.sessions.add(sessionId, transport, principal);
      await this.connect(transport, {});
      transport.receive(exchange, [message], ids, false, auth);
      return;
    }
    (await this.sessionOf(exchange, auth, ids[0]))?.receive(exchange, [message], ids, false, auth);
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
      return reply(exchange, 400, ErrorCode.InvalidRequest, `Invalid request: ${problem}`);
    const messages = batch as JSONRPCMessage[];
    // A batch runs whole or not at all: one message the caller may not send refuses it.
    if (auth) {
      for (const message of messages) {
        const forbidden = this.options.auth?.authorize?.(message, auth);
        if (forbidden) return refuse(exchange, forbidden);
      }
    }
    const ids = messages.flatMap((m) => ("method" in m && "id" in m ? [m.id] : []));
    if (this.options.stateless) {
      const transport = new HttpSessionTransport(undefined, this.streamOptions(undefined, true));
      await this.connect(transport, { assumeVersion: version });
      transport.receive(exchange, messages, ids, true, auth);
      if (ids.length === 0) await transport.close();
      return;
    }
    (await this.sessionOf(exchange, auth))?.receive(exchange, messages, ids, true, auth);
  }

  /** The POST's JSON-RPC message (or batch, unchecked), or `undefined` after answering 413 or 400. */
  private async readMessage(exchange: HttpExchange): Promise<JSONRPCMessage | unknown[] | undefined> {
    let body: string;
    try {
      body = await exchange.readBody(
        this.options.maxBodySize ?? 4 * 1024 * 1024,
        this.options.bodyTimeout ?? 30_000,
      );
    } catch (error) {
      if (error instanceof BodyTimeoutError) {
        reply(exchange, 408, ErrorCode.InvalidRequest, `Request Timeout: ${error.message}`, {
          connection: "close",
        });
        return undefined;
      }
      if (!(error instanceof BodyTooLargeError)) throw error;
      reply(exchange, 413, ErrorCode.InvalidRequest, `Payload Too Large: ${error.message}`);
      return undefined;
    }
    let value: unknown;
    try {
      value = this.parser.parse(body);
    } catch (error) {
      reply(exchange, 400, ErrorCode.ParseError, `Parse error: ${(error as Error).message}`);
      return undefined;
    }
    if (Array.isArray(value)) return value;
    const problem = messageProblem(value);
    if (problem === undefined) return value as JSONRPCMessage;
    // An id that is not a valid one is not echoed: it could stand for another request's.
    const id = (value as { id?: unknown }).id;
    reply(
      exchange,
      400,
      ErrorCode.InvalidRequest,
      `Invalid request: ${problem}`,
      undefined,
      isRequestId(id) ? id : undefined,
    );
    return undefined;
  }

  /**
   * A stateless request (2026-07-28): its `_meta` and headers are checked, then it is served, with
   * no session, on the endpoint's one stateless transport; errors carry their HTTP status (400, 404).
   */
  private async postModern(
    exchange: HttpExchange,
    message: JSONRPCMessage,
    version: string | undefined,
    auth: AuthInfo | undefined,
  ) {
    let checked: CheckedMessage | undefined = auth && { auth };
    if ("method" in message && "id" in message) {
      const admitted = this.modernAdmission(exchange, message, version);
      if (admitted instanceof McpError)
        return replyError(exchange, modernErrorStatus(admitted.code), admitted, message.id);
      checked = auth ? { meta: admitted, auth } : { meta: admitted };
    }
    const stateless = this.stateless ?? (await this.openStateless());
    stateless.receive(exchange, message, checked);
  }

  /** The transport of every stateless request, connected to the server once, on first use. */
  private openStateless(): Promise<StatelessTransport> {
    this.statelessOpening ??= (async () => {
      const transport = new StatelessTransport(this.streamOptions(undefined, true));
      await this.connect(transport, {});
      this.stateless = transport;
      return transport;
    })();
    return this.statelessOpening;
  }

  /** Why a stateless request is refused before it is served, or its sender's `_meta`. */
  private modernAdmission(
    exchange: HttpExchange,
    message: JSONRPCMessage,
    version: string | undefined,
  ): McpError | RequestMeta {
    let meta: RequestMeta;
    try {
      meta = readRequestMeta((message as { params?: Record<string, unknown> }).params);
    } catch (error) {
      return error as McpError;
    }
    if (version !== meta.protocolVersion) {
      return new McpError(
        ErrorCode.HeaderMismatch,
        `Header mismatch: MCP-Protocol-Version header value '${version ?? ""}' does not match body value '${meta.protocolVersion}'`,
      );
    }
    if (!this.supportedVersions.includes(version) || revisionOf(version)?.era !== "modern") {
      return unsupportedVersion(version, this.supportedVersions);
    }
    return modernHeaderProblem(exchange, message, this.options.paramHeaders) ?? meta;
  }

  /** Whether the endpoint can have sessions: not when stateless, nor when it speaks only 2026-07-28. */
  private get keepsSessions(): boolean {
    return !this.options.stateless && this.supportedVersions.some((v) => revisionOf(v)?.era === "legacy");
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
    if (this.replication) {
      try {
        await this.replication.sessions.delete(transport.sessionId!);
        await transport.link!.endEverywhere();
      } catch (error) {
        return unavailable(exchange, error);
      }
    }
    this.sessions.delete(transport.sessionId!);
    await transport.close();
    exchange.respond(200, {});
  }

  /**
   * The request's session, or `undefined` after answering 400, 404, or 503 (the shared store cannot
   * be reached). A session another replica opened is joined first: its state is read from the store.
   */
  private async sessionOf(
    exchange: HttpExchange,
    auth: AuthInfo | undefined,
    id?: RequestId,
  ): Promise<HttpSessionTransport | undefined> {
    const sessionId = exchange.header("mcp-session-id");
    if (this.replication && sessionId !== undefined && !this.sessions.has(sessionId)) {
      try {
        await this.join(sessionId, this.replication);
      } catch (error) {
        unavailable(exchange, error, id);
        return undefined;
      }
    }
    return this.sessions.of(exchange, this.principal(exchange, auth));
  }

  /** Serves here a session another replica opened, if it is still open. */
  private join(sessionId: string, replication: Replication): Promise<void> {
    let joining = this.joining.get(sessionId);
    if (joining) return joining;
    joining = (async () => {
      const record = await replication.sessions.touch(sessionId);
      if (!record || this.sessions.has(sessionId) || this.sessions.full) return;
      const transport = new HttpSessionTransport(sessionId, this.streamOptions(sessionId, false), {
        replication,
        restored: record.state,
      });
      await transport.link!.start();
      this.sessions.add(sessionId, transport, record.principal);
      await this.connect(transport, {});
    })().finally(() => this.joining.delete(sessionId));
    this.joining.set(sessionId, joining);
    return joining;
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

  private streamOptions(sessionId: string | undefined, stateless: boolean) {
    const headers: Record<string, string> = sessionId === undefined ? {} : { "mcp-session-id": sessionId };
    return {
      responseMode: this.options.responseMode ?? "auto",
      eventStore: stateless ? undefined : this.eventStore,
      // Stateless streams cannot be resumed, so they announce no retry interval.
      retryInterval: stateless ? undefined : (this.options.retryInterval ?? 1000),
      keepAliveInterval: this.options.keepAliveInterval ?? 15_000,
      headers: () => headers,
      closeWhenAnswered: stateless,
    };
  }
}

/** Why a batch cannot be served: empty, a malformed message, `initialize`, or an id used twice. */
function batchProblem(batch: unknown[]): string | undefined {
  if (batch.length === 0) return "an empty batch";
  const ids = new Set<RequestId>();
  for (let i = 0; i < batch.length; i++) {
    const message = batch[i] as Record<string, unknown>;
    const problem = messageProblem(message);
    if (problem !== undefined) return `batch element ${i}: ${problem}`;
    if (message.method === "initialize") return "initialize must not be part of a batch";
    if ("method" in message && "id" in message) {
      if (ids.has(message.id as RequestId)) return `batch element ${i}: the id ${message.id} is used twice`;
      ids.add(message.id as RequestId);
    }
  }
  return undefined;
}

/** Answers a request whose credentials fall short (401, 403, 400). */
function refuse(exchange: HttpExchange, refusal: HttpRefusal, id?: RequestId): void {
  reply(exchange, refusal.status, ErrorCode.ServerError, refusal.message, { ...refusal.headers }, id);
}

/** Answers a request that needs the shared stores while they cannot be reached. */
function unavailable(exchange: HttpExchange, error: unknown, id?: RequestId): void {
  const why = `Service Unavailable: the shared session store cannot be reached (${(error as Error).message}); retry shortly`;
  reply(exchange, 503, ErrorCode.ServerError, why, { "retry-after": "1" }, id);
}

/** GET and DELETE of an endpoint that keeps no sessions. */
function noSessions(exchange: HttpExchange): void {
  reply(exchange, 405, ErrorCode.ServerError, "Method not allowed: this server keeps no sessions", {
    allow: "POST",
  });
}

/** Whether a POST speaks the stateless era: by its version header, its `_meta`, or a method only it has. */
function isModernMessage(message: JSONRPCMessage, headerVersion: string | undefined): boolean {
  if (headerVersion !== undefined && revisionOf(headerVersion)?.era === "modern") return true;
  return "method" in message && speaksModern(message.method, message.params);
}
