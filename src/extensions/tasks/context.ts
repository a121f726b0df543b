import type { RequestOptions } from "../../protocol/engine/peer.js";
import {
  type ClientSend,
  type InputMethod,
  type ReplyChannel,
  type ReplyTarget,
  RequestContext,
  type RunningTask,
} from "../../server/index.js";

/** What a task's context asks of the task it runs as. */
export interface TaskLink extends RunningTask {
  /** Aborted when the task is cancelled (or its server closes). */
  readonly signal: AbortSignal;
  /** A question to the client, as the task's era asks it (a task input request, or a request). */
  ask<T>(
    method: InputMethod,
    params: Record<string, unknown> | undefined,
    key: string | undefined,
  ): Promise<T>;
  /** Reports progress as the task's status message. */
  progress(progress: number, total: number | undefined, message: string | undefined): void;
  /**
   * Runs an exchange of requests with the client for the task (2025-11-25 sessions): the task is
   * `input_required` meanwhile, and each request is related to it.
   */
  exchange<T>(run: (send: ClientSend) => Promise<T>): Promise<T>;
}

/**
 * The context of a tool handler run as a task: the call's context until the task starts (the
 * handler may ask by multi round-trip then, for a tool that starts its task itself), then the
 * task's — its id, its cancellation signal, questions as task input requests or requests related
 * to the task, progress as status messages.
 */
export class TaskContext extends RequestContext {
  override task: RunningTask | undefined = undefined;
  override startTask: (() => Promise<RunningTask>) | undefined = undefined;
  private link: TaskLink | undefined;
  /** The handler's signal, if it looked before its task started; made then (each costs). */
  private early: AbortController | undefined;

  constructor(private readonly call: RequestContext) {
    super(call.request, call.session);
    this.round = call.round;
  }

  /** From here on the handler runs as `link`'s task. */
  begin(link: TaskLink): void {
    this.link = link;
    this.task = link;
    this.round = undefined;
    const early = this.early;
    if (early) link.signal.addEventListener("abort", () => early.abort(link.signal.reason), { once: true });
  }

  /** Until the task starts, the call's cancellation; then the task's. */
  override get signal(): AbortSignal {
    if (this.early) return this.early.signal;
    if (this.link) return this.link.signal;
    const early = new AbortController();
    this.early = early;
    const call = this.call;
    const forward = () => {
      if (!this.link) early.abort(call.request.signal.reason);
    };
    if (call.request.cancelled) forward();
    else call.signal.addEventListener("abort", forward, { once: true });
    return early.signal;
  }

  protected override get channel(): ReplyChannel {
    const call = super.channel;
    const link = this.link;
    if (!link) return call;
    return {
      revision: (target) => call.revision(target),
      log: (target, level, data, logger) => {
        // A stateless call's response is gone: its log messages have nowhere to go.
        if (target.request.requestMeta === undefined) call.log(target, level, data, logger);
      },
      ask: <T>(
        _target: ReplyTarget,
        method: InputMethod,
        params: Record<string, unknown> | undefined,
        options: (RequestOptions & { key?: string }) | undefined,
      ) => link.ask<T>(method, params, options?.key),
      missing: (target, required, what) => call.missing(target, required, what),
    };
  }

  protected override exchange<T>(run: (send: ClientSend) => Promise<T>): Promise<T> {
    // The call was answered with the task: the exchange is the task's, on the session.
    return this.link ? this.link.exchange(run) : super.exchange(run);
  }

  override progress(progress: number, total?: number, message?: string): void {
    if (this.link) this.link.progress(progress, total, message);
    else super.progress(progress, total, message);
  }
}
