import { ErrorCode, McpError } from "../../jsonrpc/errors.js";
import { withProgressToken } from "../../jsonrpc/fixed-json.js";
import type { RequestId } from "../../jsonrpc/messages.js";
import type { Progress } from "../types/base.js";
import type { Deadlines, Expiring } from "./deadlines.js";
import type { Peer } from "./peer.js";

/** Per-request options of every request method. */
export interface RequestOptions {
  /** Milliseconds before the request is abandoned (and cancelled on the peer). Default: the peer's. */
  timeout?: number;
  /** Aborting cancels the request on the peer and rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Receives `notifications/progress` for this request; asks the peer for progress. */
  onProgress?: (progress: Progress) => void;
  /** Restart the timeout whenever progress arrives. */
  resetTimeoutOnProgress?: boolean;
  /** With `resetTimeoutOnProgress`: the most the request may take in all. */
  maxTotalTimeout?: number;
  /** The incoming request this one is made for; HTTP sends it on that request's stream. */
  relatedRequestId?: RequestId;
}

/** What becomes of a request's result, or of its failure, before its promise settles. */
export interface Continuation<T, R> {
  map?: (result: T) => R | PromiseLike<R>;
  recover?: (error: unknown) => R | PromiseLike<R>;
}

/** A request sent and not yet answered. */
export class OutgoingRequest implements Expiring {
  settled = false;
  /** Applied to the result as it arrives, in the same step: no promise reaction of its own. */
  map: ((result: unknown) => unknown) | undefined;
  /** Applied to a failure in the same way: what it returns or throws settles the request. */
  recover: ((error: unknown) => unknown) | undefined;
  /** When it times out (`Date.now()` clock); kept by the peer's `Deadlines`. */
  deadline = 0;
  private expiry = "";
  private readonly startedAt: number;
  private readonly timeout: number;
  private abortListener: (() => void) | undefined;

  constructor(
    private readonly peer: Peer,
    readonly id: RequestId,
    readonly method: string,
    private readonly resolve: (value: unknown) => void,
    private readonly reject: (error: unknown) => void,
    private readonly options: RequestOptions | undefined,
    defaultTimeout: number,
    private readonly deadlines: Deadlines,
  ) {
    this.timeout = options?.timeout ?? defaultTimeout;
    this.startedAt = options?.maxTotalTimeout === undefined ? 0 : Date.now();
    const signal = options?.signal;
    if (signal?.aborted) {
      this.settled = true;
      reject(signal.reason);
      return;
    }
    if (signal) {
      this.abortListener = () => this.abort(signal.reason);
      signal.addEventListener("abort", this.abortListener, { once: true });
    }
    this.arm();
  }

  /** The params to send: with `_meta.progressToken` when progress is wanted. */
  withProgressToken(params: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
    if (!this.options?.onProgress) return params;
    const meta = params?._meta as Record<string, unknown> | undefined;
    // A stateless request's kept identity `_meta` keeps its JSON with the token added.
    return {
      ...params,
      _meta: meta ? withProgressToken(meta, this.id) : { progressToken: this.id },
    };
  }

  succeed(result: unknown): void {
    if (!this.settle()) return;
    const map = this.map;
    if (map === undefined) this.resolve(result);
    else this.settleWith(map, result);
  }

  fail(error: unknown): void {
    if (!this.settle()) return;
    const recover = this.recover;
    if (recover === undefined) this.reject(error);
    else this.settleWith(recover, error);
  }

  private settleWith(next: (value: unknown) => unknown, value: unknown): void {
    try {
      this.resolve(next(value));
    } catch (error) {
      this.reject(error);
    }
  }

  progress(params: Record<string, unknown>): void {
    const onProgress = this.options?.onProgress;
    if (!onProgress || this.settled) return;
    if (this.options?.resetTimeoutOnProgress) this.arm();
    const update: Progress = { progress: params.progress as number };
    if (params.total !== undefined) update.total = params.total as number;
    if (params.message !== undefined) update.message = params.message as string;
    onProgress(update);
  }

  /** (Re)starts the clock: the timeout, or what is left of the total time if that is sooner. */
  private arm(): void {
    const now = Date.now();
    let ms = this.timeout;
    this.expiry = "";
    const max = this.options?.maxTotalTimeout;
    if (max !== undefined) {
      const left = max - (now - this.startedAt);
      if (left <= ms) {
        ms = Math.max(0, left);
        this.expiry = `exceeded its maximum total time of ${max} ms`;
      }
    }
    const first = this.deadline === 0;
    this.deadline = now + ms;
    if (first) this.deadlines.add(this);
    else this.deadlines.moved(this);
  }

  /** @internal Called by `Deadlines` once the deadline has passed. */
  expire(): void {
    const what = this.expiry || `timed out after ${this.timeout} ms`;
    this.cancelOnPeer(what);
    this.fail(
      new McpError(ErrorCode.RequestTimeout, `Request ${this.method} ${what}`, { timeout: this.timeout }),
    );
  }

  private abort(reason: unknown): void {
    if (this.settled) return;
    this.cancelOnPeer(reason instanceof Error ? reason.message : String(reason ?? "aborted"));
    this.fail(reason);
  }

  private cancelOnPeer(reason: string): void {
    this.peer.forget(this.id);
    // The spec forbids cancelling `initialize`.
    if (this.method === "initialize" || this.peer.isClosed) return;
    try {
      this.peer.notify(
        "notifications/cancelled",
        { requestId: this.id, reason },
        this.options?.relatedRequestId,
      );
    } catch {
      // The connection is going away; the rejection below says enough.
    }
  }

  private settle(): boolean {
    if (this.settled) return false;
    this.settled = true;
    this.deadlines.delete(this);
    if (this.abortListener) this.options?.signal?.removeEventListener("abort", this.abortListener);
    return true;
  }
}
