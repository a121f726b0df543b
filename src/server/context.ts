import type { RequestId } from "../jsonrpc/messages.js";
import type { IncomingRequest } from "../protocol/incoming.js";
import type { Meta } from "../protocol/types/base.js";
import type { ServerSession } from "./session.js";

/** What a handler gets beside its arguments: the request, its session, and ways to talk back. */
export class RequestContext {
  constructor(
    /** The request being handled. */
    readonly request: IncomingRequest,
    /** The connection it arrived on. */
    readonly session: ServerSession,
  ) {}

  /** The request's id. */
  get requestId(): RequestId {
    return this.request.id;
  }

  /** Aborted when the client cancels the request or the connection closes. */
  get signal(): AbortSignal {
    return this.request.signal;
  }

  /** The request's `_meta`. */
  get meta(): Meta | undefined {
    return this.request.meta;
  }

  /** Reports progress to the client, if it asked for progress; a no-op otherwise. */
  progress(progress: number, total?: number, message?: string): void {
    this.request.progress(progress, total, message);
  }
}
