import { randomBytes } from "node:crypto";
import { ErrorCode, McpError } from "../../jsonrpc/errors.js";
import { isRequestId, type JSONRPCMessage, messageProblem, type RequestId } from "../../jsonrpc/messages.js";
import {
  type AuthInfo,
  CHECKED,
  TCP_NETWORK,
  type Transport,
  type TransportHandlers,
} from "../../protocol/transport.js";
import { type HttpAuthHooks, isRefusal, principalOf } from "../http/shared/authenticate.js";
import {
  BodyTimeoutError,
  BodyTooLargeError,
  type ConnectSession,
  type HttpExchange,
  type MountedRoutes,
  type SseSink,
} from "../http/shared/exchange.js";
import { type OriginPolicy, originProblem } from "../http/shared/origin.js";
import { warnOnOverflow } from "../http/shared/overflow-warning.js";
import { formatSseEvent } from "../http/shared/sse.js";
import { type StreamBuffer, type StreamBufferLimit, streamBuffer } from "../http/shared/stream-buffer.js";

export interface LegacySseOptions extends OriginPolicy {
  /** Where clients GET the event stream. Default `/sse`. */
  path?: string;
  /** Where clients POST their messages; the `endpoint` event points here. Default `/messages`. */
  messagesPath?: string;
  maxBodySize?: number;
  /** How long a POSTed body may take to arrive, in ms; default 30 s, 0 disables. */
  bodyTimeout?: number;
  keepAliveInterval?: number;
  /**
   * How much a session's event stream may hold for a client that does not read it, beyond what the
   * network took: past it the stream, and with it the session, is closed and a warning logged
   * (`onWarning`). Default 8 MiB and 10,000 events.
   */
  maxStreamBuffer?: StreamBufferLimit;
  /** Told of a stream closed past `maxStreamBuffer`. Default: written to stderr (`console.warn`). */
  onWarning?: (message: string) => void;
  /**
   * Checks the credentials of every GET and POST, and each message against what the caller may
   * do; a session stays bound to the caller that opened it.
   */
  auth?: HttpAuthHooks;
}

/** One legacy session: messages arrive by POST, everything goes back on its GET stream. */
class LegacySseTransport implements Transport {
  readonly network = TCP_NETWORK;
  private handlers: TransportHandlers | undefined;
  private closed = false;
  private keepAlive: NodeJS.Timeout | undefined;

  constructor(
    private readonly sink: SseSink,
    keepAliveInterval: number,
    private readonly onClose: () => void,
    /** Who opened the session, when its requests carry verified credentials. */
    readonly principal: string | undefined,
  ) {
    if (keepAliveInterval > 0) {
      this.keepAlive = setInterval(() => sink.write(": keep-alive\n\n"), keepAliveInterval);
      this.keepAlive.unref();
    }
    sink.onClose(() => void this.close());
  }

  async start(handlers: TransportHandlers): Promise<void> {
    this.handlers = handlers;
  }

  /** A POSTed message, checked, from `auth` if its credentials were verified. */
  deliver(message: unknown, auth: AuthInfo | undefined): void {
    this.handlers?.onmessage(message, auth ? { auth } : CHECKED);
  }

  send(message: JSONRPCMessage): void {
    if (this.closed) throw new McpError(ErrorCode.ConnectionClosed, "the SSE session is closed");
    this.sink.write(formatSseEvent({ event: "message", data: JSON.stringify(message) }));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.keepAlive) clearInterval(this.keepAlive);
    this.sink.end();
    this.onClose();
    this.handlers?.onclose();
  }
}

/**
 * The HTTP+SSE transport of protocol 2024-11-05, for old clients: a GET opens the event stream and
 * names, in an `endpoint` event, the URL to POST messages to.
 */
export class LegacySseHandler implements MountedRoutes {
  private readonly sessions = new Map<string, LegacySseTransport>();
  readonly streamPath: string;
  readonly messagesPath: string;
  private readonly maxStreamBuffer: StreamBuffer;

  constructor(
    private readonly connect: ConnectSession,
    private readonly options: LegacySseOptions = {},
  ) {
    this.streamPath = options.path ?? "/sse";
    this.messagesPath = options.messagesPath ?? "/messages";
    this.maxStreamBuffer = streamBuffer(options.maxStreamBuffer);
  }

  /** Serves `GET streamPath` and `POST messagesPath`; leaves every other exchange alone. */
  route(exchange: HttpExchange, pathname: string): Promise<void> | undefined {
    if (pathname === this.streamPath && exchange.method === "GET") return this.openStream(exchange);
    if (pathname === this.messagesPath && exchange.method === "POST") return this.post(exchange);
    return undefined;
  }

  /** GET: opens a session's event stream and sends its `endpoint`. */
  async openStream(exchange: HttpExchange): Promise<void> {
    const forbidden = originProblem(exchange, this.options);
    if (forbidden) return reply(exchange, 403, `Forbidden: ${forbidden}`);
    const auth = await this.authenticate(exchange);
    if (auth === null) return;
    const sessionId = randomBytes(16).toString("base64url");
    const limit = this.maxStreamBuffer;
    const sink = exchange.openStream(
      {
        "content-type": "text/event-stream",
        "cache-control": "no-cache, no-transform",
        connection: "keep-alive",
        "x-accel-buffering": "no",
      },
      limit,
    );
    const what = "the event stream (and so the session) of an HTTP+SSE client";
    warnOnOverflow(sink, limit, what, false, this.options.onWarning);
    const transport = new LegacySseTransport(
      sink,
      this.options.keepAliveInterval ?? 15_000,
      () => this.sessions.delete(sessionId),
      auth && principalOf(auth),
    );
    this.sessions.set(sessionId, transport);
    sink.write(formatSseEvent({ event: "endpoint", data: `${this.messagesPath}?sessionId=${sessionId}` }));
    await this.connect(transport, {});
  }

  /** POST: one message for the session named in the query. */
  async post(exchange: HttpExchange): Promise<void> {
    const forbidden = originProblem(exchange, this.options);
    if (forbidden) return reply(exchange, 403, `Forbidden: ${forbidden}`);
    const auth = await this.authenticate(exchange);
    if (auth === null) return;
    const sessionId = new URL(exchange.url, "http://x").searchParams.get("sessionId");
    const transport = sessionId === null ? undefined : this.sessions.get(sessionId);
    // Someone else's session is not found either: nothing says it exists.
    if (!transport || transport.principal !== (auth && principalOf(auth)))
      return reply(exchange, 404, "Session not found");
    // node keeps the first of two Content-Type headers: a proxy keeping the last would read another body.
    if (exchange.headerCount("content-type") > 1) {
      return reply(exchange, 415, "Unsupported Media Type: the Content-Type header is repeated");
    }
    if (!/^application\/json\s*(;|$)/i.test(exchange.header("content-type") ?? "")) {
      return reply(exchange, 415, "Unsupported Media Type: Content-Type must be application/json");
    }
    let value: unknown;
    try {
      const body = await exchange.readBody(
        this.options.maxBodySize ?? 4 * 1024 * 1024,
        this.options.bodyTimeout ?? 30_000,
      );
      value = JSON.parse(body);
    } catch (error) {
      if (error instanceof BodyTimeoutError) return reply(exchange, 408, `Request Timeout: ${error.message}`);
      if (error instanceof BodyTooLargeError)
        return reply(exchange, 413, `Payload Too Large: ${error.message}`);
      return reply(exchange, 400, `Parse error: ${(error as Error).message}`, ErrorCode.ParseError, {}, null);
    }
    const problem = messageProblem(value);
    if (problem) {
      // An id that is not a valid one is not echoed: it could stand for another request's.
      const id = (value as { id?: unknown } | null)?.id;
      const readable = isRequestId(id) ? id : null;
      return reply(exchange, 400, `Invalid request: ${problem}`, ErrorCode.InvalidRequest, {}, readable);
    }
    const refusal = auth && this.options.auth?.authorize?.(value as JSONRPCMessage, auth);
    if (refusal)
      return reply(exchange, refusal.status, refusal.message, ErrorCode.ServerError, refusal.headers);
    exchange.respond(202, { "content-type": "text/plain" }, "Accepted");
    transport.deliver(value, auth);
  }

  /** The verified caller (`undefined` without `auth`), or `null` after refusing the request. */
  private async authenticate(exchange: HttpExchange): Promise<AuthInfo | undefined | null> {
    if (!this.options.auth) return undefined;
    const verified = await this.options.auth.authenticate(exchange);
    if (!isRefusal(verified)) return verified;
    reply(exchange, verified.status, verified.message, ErrorCode.ServerError, verified.headers);
    return null;
  }

  async close(): Promise<void> {
    await Promise.all([...this.sessions.values()].map((transport) => transport.close()));
  }
}

/** A JSON-RPC error body; `id` (`null` for a message whose id could not be read) only when given. */
function reply(
  exchange: HttpExchange,
  status: number,
  message: string,
  code: number = ErrorCode.ServerError,
  headers: Readonly<Record<string, string>> = {},
  id?: RequestId | null,
): void {
  const error = { code, message };
  const body = JSON.stringify(id === undefined ? { jsonrpc: "2.0", error } : { jsonrpc: "2.0", id, error });
  exchange.respond(status, { "content-type": "application/json", ...headers }, body);
}
