import { ErrorCode, McpError } from "../../jsonrpc/errors.js";
import { FramingError } from "../../jsonrpc/framing.js";
import type {
  JSONRPCErrorResponse,
  JSONRPCMessage,
  JSONRPCNotification,
  JSONRPCRequest,
  RequestId,
} from "../../jsonrpc/messages.js";
import { messageProblem } from "../../jsonrpc/messages.js";
import { TransientMap } from "../../util/transient.js";
import type { CheckedMessage, Transport } from "../transport.js";
import type { Result } from "../types/base.js";
import { answerFramingError, answerInvalid, answerRequest, respondError } from "./answers.js";
import type { Batch } from "./batch.js";
import { receiveBatch } from "./batch-exchange.js";
import { Deadlines } from "./deadlines.js";
import { IncomingRequest } from "./incoming.js";
import { type Continuation, OutgoingRequest, type RequestOptions } from "./outgoing.js";
import {
  DEFAULT_REQUEST_TIMEOUT,
  type MessageTrace,
  type NotificationHandler,
  type PeerOptions,
  type RequestHandler,
} from "./peer-options.js";

export { IncomingRequest } from "./incoming.js";
export type { RequestOptions } from "./outgoing.js";

export {
  DEFAULT_REQUEST_TIMEOUT,
  type MessageTrace,
  type NotificationHandler,
  type PeerOptions,
  type RequestHandler,
} from "./peer-options.js";

const EMPTY: Record<string, unknown> = Object.freeze({}) as Record<string, unknown>;

/**
 * The JSON-RPC engine under both roles: many requests in flight matched by id, notifications
 * anywhere, timeouts, cancellation, progress and ping. It knows no MCP method but these.
 */
export class Peer {
  private readonly requestHandlers = new Map<string, RequestHandler>();
  private readonly notificationHandlers = new Map<string, NotificationHandler>();
  private readonly outgoing = new TransientMap<RequestId, OutgoingRequest>();
  /** The timeouts of `outgoing`, on one timer. */
  private readonly deadlines = new Deadlines();
  private readonly incoming = new TransientMap<RequestId, IncomingRequest>();
  private nextId = 1;
  /** Set once the connection ended: `null` for an orderly close, else why it failed. */
  private ended: Error | null | undefined;
  private closeError: McpError | undefined;
  private readonly closeListeners: ((error?: Error) => void)[] = [];
  private idleWaiters: (() => void)[] = [];
  readonly requestTimeout: number;
  guard: PeerOptions["guard"];
  /** Whether JSON-RPC batches are accepted: set from the negotiated revision (2025-03-26 only). */
  batches = false;
  private readonly trace: MessageTrace | undefined;
  /** Sees every `notifications/progress`, after the request it belongs to has. */
  onprogress: ((params: Record<string, unknown>) => void) | undefined;
  /** Called with problems that end no request: unparsable input, handler failures after cancel. */
  onerror: (error: Error) => void = () => {};
  /**
   * @internal Sees each request and notification of this side before it is sent, and sends it
   * (or what it makes of it) with `proceed`; `undefined` sends at once. A rejection drops the
   * message: a request fails with it, a notification's is reported to `onerror`.
   */
  beforeSend:
    | ((
        message: JSONRPCRequest | JSONRPCNotification,
        proceed: (message: JSONRPCMessage) => void,
      ) => Promise<void> | undefined)
    | undefined;

  constructor(
    readonly transport: Transport,
    options: PeerOptions = {},
  ) {
    this.requestTimeout = options.requestTimeout ?? DEFAULT_REQUEST_TIMEOUT;
    this.trace = options.trace;
    this.guard = options.guard;
    this.requestHandlers.set("ping", () => ({}));
    this.notificationHandlers.set("notifications/cancelled", (params) => this.cancelIncoming(params));
    this.notificationHandlers.set("notifications/progress", (params) => this.progressOutgoing(params));
  }

  /** Starts reading from the transport. */
  start(): Promise<void> {
    return this.transport.start({
      onmessage: (message, checked) => this.receive(message, checked),
      onerror: (error) => this.transportError(error),
      oninputend: () => void this.drainAndClose(),
      onclose: (error) => this.closed(error),
    });
  }

  /** Whether the connection has ended. */
  get isClosed(): boolean {
    return this.ended !== undefined;
  }

  setRequestHandler(method: string, handler: RequestHandler): void {
    this.requestHandlers.set(method, handler);
  }

  setNotificationHandler(method: string, handler: NotificationHandler): void {
    this.notificationHandlers.set(method, handler);
  }

  /** The handler of a notification, if one is set (for wrapping it). */
  notificationHandler(method: string): NotificationHandler | undefined {
    return this.notificationHandlers.get(method);
  }

  /** Registers a listener for the end of the connection. */
  onClose(listener: (error?: Error) => void): void {
    this.closeListeners.push(listener);
  }

  /** Sends a request and resolves with its result, or rejects with an `McpError` or the abort reason. */
  request<T = Result>(
    method: string,
    params?: Record<string, unknown>,
    options?: RequestOptions,
  ): Promise<T> {
    return this.requestThen<T, T>(method, params, options, undefined);
  }

  /**
   * `request(…).then(map, recover)` without the extra promise: `map` and `recover` run as the
   * answer (or the failure) comes, and what they return or throw settles the promise.
   */
  requestThen<T, R>(
    method: string,
    params: Record<string, unknown> | undefined,
    options: RequestOptions | undefined,
    then: Continuation<T, R> | undefined,
  ): Promise<R> {
    if (this.ended !== undefined) {
      const closed = Promise.reject(this.closedWith());
      return then ? closed.then(then.map, then.recover) : (closed as Promise<R>);
    }
    const id = this.nextId++;
    return new Promise<R>((resolve, reject) => {
      const pending = new OutgoingRequest(
        this,
        id,
        method,
        resolve as (value: unknown) => void,
        reject,
        options,
        this.requestTimeout,
        this.deadlines,
      );
      if (then !== undefined) {
        pending.map = then.map as ((result: unknown) => unknown) | undefined;
        pending.recover = then.recover;
      }
      if (pending.settled) return;
      this.outgoing.set(id, pending);
      const message: JSONRPCRequest = { jsonrpc: "2.0", id, method };
      const withParams = pending.withProgressToken(params);
      if (withParams !== undefined) message.params = withParams;
      const failed = (error: unknown) => {
        this.outgoing.delete(id);
        pending.fail(error as Error);
      };
      try {
        if (this.beforeSend === undefined) this.send(message, options?.relatedRequestId);
        else this.beforeSend(message, (sent) => this.send(sent, options?.relatedRequestId))?.catch(failed);
      } catch (error) {
        failed(error);
      }
    });
  }

  /**
   * Sends a notification, optionally on behalf of an incoming request. Dropped silently once the
   * connection is closed.
   */
  notify(method: string, params?: Record<string, unknown>, relatedRequestId?: RequestId): void {
    if (this.ended !== undefined) return;
    const message: JSONRPCNotification =
      params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params };
    if (this.beforeSend === undefined) this.send(message, relatedRequestId);
    else
      this.beforeSend(message, (sent) => {
        if (this.ended === undefined) this.send(sent, relatedRequestId);
      })?.catch((error) => this.onerror(error as Error));
  }

  /** Ends the connection: pending requests reject, handlers in flight see their signal aborted. */
  close(): Promise<void> {
    return this.transport.close();
  }

  /** Resolves when no request from the other side is being handled. */
  async idle(): Promise<void> {
    while (this.incoming.size > 0) {
      await new Promise<void>((resolve) => {
        this.idleWaiters.push(resolve);
      });
    }
  }

  /** The other side will send nothing more: answer what it asked, then close. */
  private async drainAndClose(): Promise<void> {
    await this.idle();
    await this.close();
  }

  /** @internal Sends a message, tracing it. */
  send(message: JSONRPCMessage, relatedRequestId?: RequestId): void {
    this.trace?.("send", message);
    this.transport.send(message, relatedRequestId);
  }

  /** @internal Forgets an outgoing request that settled locally (timeout, abort). */
  forget(id: RequestId): void {
    this.outgoing.delete(id);
  }

  private receive(value: unknown, checked: CheckedMessage | undefined): void {
    if (checked === undefined) {
      const problem = messageProblem(value);
      if (problem !== undefined) {
        if (Array.isArray(value)) receiveBatch(this, value);
        else answerInvalid(this, value, problem);
        return;
      }
    }
    this.dispatch(value as JSONRPCMessage, checked, undefined);
  }

  /** @internal Hands a well-formed message to its handler; a request of a batch answers into it. */
  dispatch(message: JSONRPCMessage, checked: CheckedMessage | undefined, batch: Batch | undefined): void {
    this.trace?.("receive", message);
    if ("method" in message) {
      if ("id" in message) this.handleRequest(message as JSONRPCRequest, checked, batch);
      else this.handleNotification(message);
    } else {
      this.handleResponse(message);
    }
  }

  /** @internal Sees a message as it is sent, when tracing. */
  traceSend(message: JSONRPCMessage): void {
    this.trace?.("send", message);
  }

  private handleNotification(message: JSONRPCNotification): void {
    const handler = this.notificationHandlers.get(message.method);
    if (!handler) return;
    try {
      handler(message.params ?? EMPTY);
    } catch (error) {
      this.onerror(error as Error);
    }
  }

  private handleRequest(message: JSONRPCRequest, checked: CheckedMessage | undefined, batch?: Batch): void {
    const { id, method } = message;
    const meta = checked?.meta;
    if (this.incoming.has(id)) {
      respondError(
        this,
        id,
        new McpError(ErrorCode.InvalidRequest, `Request id ${id} is already in use`),
        batch,
      );
      return;
    }
    const admitted = this.guard?.(message, meta);
    if (admitted instanceof McpError) {
      respondError(this, id, admitted, batch);
      return;
    }
    // Batches are the handshake era's (2025-03-26): a request admitted as a stateless one has none.
    if (batch !== undefined && admitted !== undefined) {
      const why = `Invalid request: ${method} is a request of the stateless era (it names its protocol version in _meta), which has no batches`;
      respondError(this, id, new McpError(ErrorCode.InvalidRequest, why), batch);
      return;
    }
    const handler = this.requestHandlers.get(method);
    if (!handler) {
      respondError(this, id, new McpError(ErrorCode.MethodNotFound, `Method not found: ${method}`), batch);
      return;
    }
    const request = new IncomingRequest(this, message, admitted, checked?.auth);
    if (batch !== undefined) {
      request.batch = batch;
      batch.open++;
    }
    this.incoming.set(id, request);
    let result: object | Promise<object>;
    try {
      result = handler(message.params ?? EMPTY, request);
    } catch (error) {
      this.finish(request, undefined, error);
      return;
    }
    if (result instanceof Promise) {
      result.then(
        (value) => this.finish(request, value, undefined),
        (error) => this.finish(request, undefined, error),
      );
    } else {
      this.finish(request, result, undefined);
    }
  }

  /** @internal Answers an incoming request, once: whoever comes first, its handler or `answer`. */
  finish(request: IncomingRequest, result: object | undefined, error: unknown): void {
    if (request.answered) return;
    request.answered = true;
    this.incoming.delete(request.id);
    if (this.incoming.size === 0 && this.idleWaiters.length > 0) {
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      queueMicrotask(() => {
        for (const resolve of waiters) resolve();
      });
    }
    // A cancelled request gets no response; the requester has already given up on it.
    if (request.cancelled || this.ended !== undefined) request.batch?.answered(undefined);
    else answerRequest(this, request, result, error);
  }

  private handleResponse(message: JSONRPCMessage): void {
    const id = (message as { id?: RequestId | null }).id;
    if (id === undefined || id === null) {
      const error = (message as JSONRPCErrorResponse).error;
      this.onerror(new McpError(error.code, `Peer reported an error: ${error.message}`, error.data));
      return;
    }
    const pending = this.outgoing.get(id);
    if (!pending) {
      this.onerror(
        new McpError(ErrorCode.InvalidRequest, `Received a response for unknown request id ${id}`),
      );
      return;
    }
    this.outgoing.delete(id);
    if ("result" in message) pending.succeed(message.result);
    else pending.fail(McpError.fromObject((message as JSONRPCErrorResponse).error));
  }

  private cancelIncoming(params: Record<string, unknown>): void {
    const id = params.requestId as RequestId | undefined;
    if (id === undefined) return;
    this.incoming.get(id)?.cancel(typeof params.reason === "string" ? params.reason : undefined);
  }

  private progressOutgoing(params: Record<string, unknown>): void {
    const token = params.progressToken as RequestId | undefined;
    if (token !== undefined) this.outgoing.get(token)?.progress(params);
    this.onprogress?.(params);
  }

  private transportError(error: Error): void {
    if (error instanceof FramingError && this.ended === undefined) answerFramingError(this, error);
    this.onerror(error);
  }

  /**
   * The error of requests the closed connection cannot answer, made on first need: a stateless
   * HTTP request closes a connection every time, and mostly nobody asks why.
   */
  private closedWith(): McpError {
    const error = this.ended ?? undefined;
    this.closeError ??= new McpError(
      ErrorCode.ConnectionClosed,
      error ? `Connection closed: ${error.message}` : "Connection closed",
      undefined,
      { cause: error },
    );
    return this.closeError;
  }

  private closed(error?: Error): void {
    if (this.ended !== undefined) return;
    this.ended = error ?? null;
    for (const pending of this.outgoing.values()) pending.fail(this.closedWith());
    this.outgoing.clear();
    for (const request of this.incoming.values()) request.cancel("connection closed");
    this.incoming.clear();
    for (const resolve of this.idleWaiters.splice(0)) resolve();
    for (const listener of this.closeListeners) listener(error);
  }
}
