import { ErrorCode, McpError } from "../../../jsonrpc/errors.js";
import { messageJson } from "../../../jsonrpc/fixed-json.js";
import type { JSONRPCMessage, JSONRPCRequest, RequestId } from "../../../jsonrpc/messages.js";
import { META } from "../../../protocol/eras/request-meta.js";
import {
  CHECKED,
  type CheckedMessage,
  TCP_NETWORK,
  type Transport,
  type TransportHandlers,
} from "../../../protocol/transport.js";
import { TransientMap } from "../../../util/transient.js";
import type { HttpExchange } from "../shared/exchange.js";
import { modernErrorStatus } from "./modern-headers.js";
import { nextStreamNumber, openSink, Stream, type StreamOptions } from "./stream.js";

/** A stateless request being answered. */
interface Pending {
  /** The client's own id for it. */
  clientId: RequestId;
  /** Its POST, until the answer is sent as JSON or an event stream is opened on it. */
  exchange: HttpExchange | undefined;
  stream: Stream | undefined;
}

/**
 * A `subscriptions/listen` stream is named by its request's id (`_meta` subscription id, in its
 * notifications and its result): the client knows it by its own id, not the inner one.
 */
function withClientSubscriptionId<T extends object>(value: T, innerId: RequestId, clientId: RequestId): T {
  const meta = (value as { _meta?: Record<string, unknown> })._meta;
  if (meta?.[META.subscriptionId] !== innerId) return value;
  return { ...value, _meta: { ...meta, [META.subscriptionId]: clientId } };
}

/** Why a request in flight gets no answer when the endpoint closes. */
const closedBody = JSON.stringify({
  jsonrpc: "2.0",
  error: { code: ErrorCode.ServerError, message: "The server closed before the request was answered" },
});

/**
 * The one transport every stateless (2026-07-28) request of an endpoint is served on. A stateless
 * request needs no session, so rather than a server session made and torn down for every POST, one
 * lives as long as the endpoint, and requests are told apart by id: each gets an id of its own on
 * the way in (clients' ids collide with one another's), and its answer goes back with the client's
 * id on its own POST, as JSON, or as an event stream once something comes before the answer. A
 * client that hangs up has cancelled its request. (A server's message trace shows the inner ids.)
 */
export class StatelessTransport implements Transport {
  readonly network = TCP_NETWORK;
  private handlers: TransportHandlers | undefined;
  private readonly pending = new TransientMap<number, Pending>();
  private lastId = 0;
  private closed = false;

  constructor(private readonly options: StreamOptions) {}

  async start(handlers: TransportHandlers): Promise<void> {
    this.handlers = handlers;
  }

  /** Serves one POSTed message; the POST is answered with the response to it, or 202. */
  receive(exchange: HttpExchange, message: JSONRPCMessage, checked: CheckedMessage = CHECKED): void {
    if (!("method" in message) || !("id" in message)) {
      exchange.respond(202, {});
      // Statelessly the server asks the client nothing (there is nothing to answer), and
      // cancelling is hanging up: a cancellation here could only name someone else's request.
      if ("method" in message && message.method !== "notifications/cancelled") {
        this.handlers?.onmessage(message, checked);
      }
      return;
    }
    const id = ++this.lastId;
    const pending: Pending = { clientId: message.id, exchange, stream: undefined };
    this.pending.set(id, pending);
    exchange.onAbort(() => this.hangUp(id));
    if (this.options.responseMode === "sse") this.openStream(pending);
    // The message was parsed for this POST alone: it takes the inner id in place.
    (message as JSONRPCRequest).id = id;
    this.handlers?.onmessage(message, checked);
  }

  send(message: JSONRPCMessage, relatedRequestId?: RequestId): void {
    if (this.closed) throw new McpError(ErrorCode.ConnectionClosed, "the HTTP endpoint is closed");
    const isResponse = "id" in message && !("method" in message);
    const key = isResponse ? (message as { id: RequestId }).id : relatedRequestId;
    const pending = typeof key === "number" ? this.pending.get(key) : undefined;
    // Without a request to go with it, a message has nowhere to go: there is no session stream.
    if (!pending) return;
    if (!isResponse) {
      // Answers always as JSON (`responseMode: "json"`): with no session stream, the rest is dropped.
      if (this.options.responseMode === "json") return;
      const params = (message as { params?: Record<string, unknown> }).params;
      const named = params && withClientSubscriptionId(params, key!, pending.clientId);
      const sent = named === params ? message : ({ ...message, params: named } as JSONRPCMessage);
      // Serialized before the stream opens: a message that cannot be throws, and opens nothing.
      const json = messageJson(sent);
      this.openStream(pending).write(sent, json);
      return;
    }
    const error = (message as { error?: { code: number } }).error;
    const answer = (
      error === undefined
        ? {
            jsonrpc: "2.0",
            id: pending.clientId,
            result: withClientSubscriptionId((message as { result: object }).result, key!, pending.clientId),
          }
        : { jsonrpc: "2.0", id: pending.clientId, error }
    ) as JSONRPCMessage;
    // Serialized before the request is let go: an answer that cannot be throws, and it stays open.
    const json = messageJson(answer);
    this.pending.delete(key as number);
    if (pending.stream) {
      pending.stream.write(answer, json);
      pending.stream.finish();
      return;
    }
    // 2026-07-28 gives JSON-RPC errors their HTTP status.
    const status = error ? modernErrorStatus(error.code) : 200;
    pending.exchange?.respond(status, { "content-type": "application/json" }, json);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const pending of this.pending.values()) {
      pending.stream?.detach();
      pending.exchange?.respond(503, { "content-type": "application/json" }, closedBody);
    }
    this.pending.clear();
    this.handlers?.onclose();
  }

  /** The client went away before its answer: the request is cancelled. */
  private hangUp(id: number): void {
    const pending = this.pending.get(id);
    if (!pending) return;
    this.pending.delete(id);
    pending.stream?.detach();
    this.handlers?.onmessage({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: id, reason: "the client closed the connection" },
    });
  }

  private openStream(pending: Pending): Stream {
    if (pending.stream) return pending.stream;
    const stream = new Stream(`stateless-${nextStreamNumber()}`, this.options, () => {});
    pending.stream = stream;
    stream.attach(openSink(pending.exchange!, this.options, "the event stream of a stateless POST"));
    pending.exchange = undefined;
    return stream;
  }
}
