/**
 * One forwarded tool call and the questions its upstream asked while it ran, in order, until the
 * caller answers them (in one request, or over several rounds of a stateless caller's request).
 */
import { randomBytes } from "node:crypto";
import { ErrorCode, McpError } from "../jsonrpc/errors.js";
import type { CallToolResult } from "../protocol/types/tools.js";
import type { RequestContext } from "../server/sessions/context.js";
import type { InputMethod } from "../server/sessions/input-round.js";
import type { SignalPool } from "./signal-pool.js";

/** One question of an upstream, waiting for the caller's answer. */
interface Question {
  method: InputMethod;
  params: Record<string, unknown>;
  /** Aborted when the upstream cancels its question. */
  signal: AbortSignal;
  settled: boolean;
  resolve(answer: object): void;
  reject(error: unknown): void;
}

/**
 * Thrown in the last round of a stateless caller's call when the caller did not come back with
 * the answers within `inputTimeout`: the upstream call is cancelled, and the round's audit line
 * says `abandoned`.
 */
export class AbandonedCall extends McpError {
  constructor() {
    super(ErrorCode.RequestTimeout, "The caller did not answer the upstream's question in time");
  }
}

/**
 * One forwarded tool call: the upstream call in flight and the questions it asked, in order. A
 * stateless caller answers them over several rounds of its request; each round serves the same call.
 */
export class ForwardedCall {
  private ownId: string | undefined;
  /** The links of its upstream's list of calls in flight (`InFlight`). */
  previousInFlight: ForwardedCall | undefined;
  nextInFlight: ForwardedCall | undefined;
  /**
   * Aborts the upstream call, when the call has its own signal: a stateless caller's call
   * outlives the round that made it, and a pooled one is not the front request's.
   */
  readonly controller: AbortController | undefined;
  private released = false;
  /** The signal the upstream call is made with. */
  readonly signal: AbortSignal;
  readonly questions: Question[] = [];
  /** The front request serving the call now: progress and logs go there. */
  front: RequestContext;
  /**
   * The rounds waiting for the next question: most calls have one, kept apart from the others (a
   * replayed round serves the call beside another) so that it takes no array.
   */
  private waiter: (() => void) | undefined;
  private moreWaiters: (() => void)[] | undefined;
  private done = false;
  /** The upstream's result, once it came. */
  private result: CallToolResult | undefined;
  /** Why the upstream call failed, once it did. */
  private failure: { error: unknown } | undefined;
  /** The result's size in bytes of JSON, once it came, if it was measured. */
  resultSize: number | undefined;
  /** Rejects the wait of the latest round, once the caller is given up on. */
  private abandonRound: ((error: AbandonedCall) => void) | undefined;

  constructor(
    front: RequestContext,
    /** Who made the call: only they may continue it. */
    readonly caller: string | undefined,
    /** The tool and arguments digest (asked only once a question comes): a later round must match it. */
    readonly subject: () => string,
    /** Whether the caller is stateless (2026-07-28): its later rounds continue this call. */
    readonly stateless: boolean,
    /** Where the call's controller comes from and goes back to; without one, a stateful call uses the front request's signal. */
    private readonly pool?: SignalPool,
  ) {
    this.front = front;
    if (pool) this.controller = pool.take();
    else if (stateless) this.controller = new AbortController();
    this.signal = this.controller?.signal ?? front.signal;
  }

  /**
   * Gives a pooled controller back, once the call ended and nothing else will abort it (the
   * rounds no longer listen for cancellation). A call that asked questions keeps it: their
   * handlers may still hold its signal.
   */
  release(): void {
    if (!this.done || this.released || !this.pool || !this.controller) return;
    this.released = true;
    if (this.questions.length === 0) this.pool.give(this.controller);
  }

  /** The id, if it was made. */
  get knownId(): string | undefined {
    return this.ownId;
  }

  /** Names the call in the keys of its input requests, so a later round finds it; made when first asked. */
  get id(): string {
    this.ownId ??= randomBytes(16).toString("base64url");
    return this.ownId;
  }

  /** Called by the upstream's request handlers: queues a question and waits for its answer. */
  ask(method: InputMethod, params: Record<string, unknown>, signal: AbortSignal): Promise<object> {
    return new Promise<object>((resolve, reject) => {
      const question: Question = { method, params, signal, settled: false, resolve, reject };
      const settle = (fn: () => void) => {
        if (question.settled) return;
        question.settled = true;
        fn();
      };
      question.resolve = (answer) => settle(() => resolve(answer));
      question.reject = (error) => settle(() => reject(error));
      signal.addEventListener("abort", () => question.reject(signal.reason), { once: true });
      this.questions.push(question);
      this.notify();
    });
  }

  /** Whether the upstream call ended: no more questions will come. */
  get ended(): boolean {
    return this.done;
  }

  /** Question `n` once it is asked, or `undefined` once the call ended first. */
  async question(n: number): Promise<Question | undefined> {
    while (this.questions.length <= n && !this.done) await this.changed();
    return this.questions[n];
  }

  /** Resolves when a question comes or the call ends, whichever is first. */
  changed(): Promise<void> {
    return new Promise<void>((resolve) => {
      if (this.waiter === undefined) this.waiter = resolve;
      else if (this.moreWaiters === undefined) this.moreWaiters = [resolve];
      else this.moreWaiters.push(resolve);
    });
  }

  /**
   * Rejects once the stateless caller is given up on (`abandon`), for the latest round only: a
   * round continued by a later one ends with it, and the last round records the call.
   */
  whenAbandoned(): Promise<never> {
    return new Promise<never>((_resolve, reject) => {
      this.abandonRound = reject;
    });
  }

  /** Gives up on the caller: cancels the upstream call and ends the latest round's wait. */
  abandon(): void {
    const error = new AbandonedCall();
    this.controller?.abort(error);
    this.abandonRound?.(error);
    this.abandonRound = undefined;
  }

  /** Records the upstream's result (before `end`). */
  succeed(result: CallToolResult): void {
    this.result = result;
  }

  /** Records why the upstream call failed (before `end`). */
  fail(error: unknown): void {
    this.failure = { error };
  }

  /** The upstream's result once the call ended; throws what it failed with. */
  outcome(): CallToolResult {
    if (this.failure) throw this.failure.error;
    if (!this.done || this.result === undefined) throw new Error("The forwarded call has not ended");
    return this.result;
  }

  /** Marks the upstream call ended: no more questions will come. */
  end(): void {
    this.done = true;
    for (const question of this.questions) {
      question.reject(new McpError(ErrorCode.InternalError, "The call ended before the answer came"));
    }
    this.notify();
  }

  private notify(): void {
    const wake = this.waiter;
    const more = this.moreWaiters;
    this.waiter = undefined;
    this.moreWaiters = undefined;
    wake?.();
    if (more) for (const next of more) next();
  }
}

/** Asks the front client question `question` of `call`, keyed so a stateless round can answer it. */
export async function askFront(
  ctx: RequestContext,
  call: ForwardedCall,
  n: number,
  question: { method: InputMethod; params: Record<string, unknown>; signal: AbortSignal },
): Promise<object> {
  const options = { key: `proxy/${call.id}/${n}`, signal: question.signal };
  const params = question.params;
  switch (question.method) {
    case "sampling/createMessage":
      return ctx.sample(params as never, options);
    case "elicitation/create":
      return ctx.elicit(params as never, options);
    case "roots/list":
      return { roots: await ctx.listRoots(options) };
  }
}

/** The id of the call a stateless round continues: named in the keys of its `inputResponses`. */
export function continuedCallId(ctx: RequestContext): string | undefined {
  const responses = ctx.request.message.params?.inputResponses;
  if (typeof responses !== "object" || responses === null) return undefined;
  for (const key of Object.keys(responses)) {
    const found = /^proxy\/([A-Za-z0-9_-]{22})\/\d+$/.exec(key);
    if (found) return found[1];
  }
  return undefined;
}
