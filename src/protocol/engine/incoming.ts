import type { JSONRPCRequest, RequestId } from "../../jsonrpc/messages.js";
import type { AuthInfo } from "../transport.js";
import type { Meta, ProgressToken, Result } from "../types/base.js";
import type { RequestMeta } from "../types/lifecycle.js";
import type { Batch } from "./batch.js";
import type { Peer, RequestOptions } from "./peer.js";

/**
 * A request being handled: its id, `_meta`, a cancellation signal, and ways to report progress
 * and to talk back to the requester while it runs.
 */
export class IncomingRequest {
  readonly id: RequestId;
  readonly method: string;
  /** Set once the requester cancelled or the connection closed. */
  cancelled = false;
  /** @internal Set once the request was answered: what its handler returns later is dropped. */
  answered = false;
  /** @internal The JSON-RPC batch it came in (2025-03-26), whose array its response joins. */
  batch: Batch | undefined;
  private controller: AbortController | undefined;
  private cancelReason: string | undefined;
  /**
   * @internal Called once if the request is cancelled: for a caller that would otherwise make
   * `signal` only to listen on it (an `AbortController` and a listener per request).
   */
  whenCancelled: ((reason: Error) => void) | undefined;

  constructor(
    private readonly peer: Peer,
    readonly message: JSONRPCRequest,
    /** What a stateless request says of its sender in `_meta`; `undefined` in a session. */
    readonly requestMeta?: RequestMeta,
    /** Who sent it, as its transport verified; `undefined` on a transport without credentials. */
    readonly auth?: AuthInfo,
  ) {
    this.id = message.id;
    this.method = message.method;
  }

  /** The request's `_meta`, if it had one (shared and frozen when it repeats the previous one's). */
  get meta(): Readonly<Meta> | undefined {
    return this.message.params?._meta as Readonly<Meta> | undefined;
  }

  /** The token to report progress against, if the requester asked for progress. */
  get progressToken(): ProgressToken | undefined {
    return this.meta?.progressToken as ProgressToken | undefined;
  }

  /** Aborted when the requester cancels or the connection closes. Created on first use. */
  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.cancelled) this.controller.abort(this.abortReason());
    }
    return this.controller.signal;
  }

  /** Reports progress; does nothing if the requester gave no progress token. */
  progress(progress: number, total?: number, message?: string): void {
    const progressToken = this.progressToken;
    if (progressToken === undefined || this.cancelled) return;
    const params: Record<string, unknown> = { progressToken, progress };
    if (total !== undefined) params.total = total;
    if (message !== undefined) params.message = message;
    this.peer.notify("notifications/progress", params, this.id);
  }

  /** Sends a notification related to this request. */
  notify(method: string, params?: Record<string, unknown>): void {
    this.peer.notify(method, params, this.id);
  }

  /** Sends a request back to the requester while this one runs; aborted with it. */
  request<T = Result>(
    method: string,
    params?: Record<string, unknown>,
    options: RequestOptions = {},
  ): Promise<T> {
    const signal = options.signal ? AbortSignal.any([options.signal, this.signal]) : this.signal;
    return this.peer.request<T>(method, params, { ...options, signal, relatedRequestId: this.id });
  }

  /**
   * @internal Answers now, before the handler has returned (a stateless request that ends asking
   * for input while its handler waits); whatever the handler returns later is dropped.
   */
  answer(result: object | undefined, error?: unknown): void {
    this.peer.finish(this, result, error);
  }

  /** @internal */
  cancel(reason: string | undefined): void {
    if (this.cancelled) return;
    this.cancelled = true;
    this.cancelReason = reason;
    if (this.controller === undefined && this.whenCancelled === undefined) return;
    const error = this.abortReason();
    this.controller?.abort(error);
    this.whenCancelled?.(error);
  }

  private abortReason(): Error {
    const error = new Error(
      `Request ${this.method} was cancelled${this.cancelReason ? `: ${this.cancelReason}` : ""}`,
    );
    error.name = "AbortError";
    return error;
  }
}
