/**
 * The questions an upstream asks while a forwarded call runs (`sampling/createMessage`,
 * `elicitation/create`, `roots/list`), carried to the proxy's own client and their answers back.
 *
 * An upstream connection is shared by every client of the proxy, so it declares what the proxy can
 * forward (`FORWARDED_CAPABILITIES`) and each question goes to the caller of the call it belongs
 * to, whose own capabilities then decide (a caller that cannot answer gets the upstream an error,
 * as its own client would). Which call a question belongs to: a stateless (2026-07-28) upstream
 * asks within the call's own request, so the answer is exact; a session upstream sends a request
 * that names no call, so it goes to the only call in flight to that upstream, or, with several, to
 * the first of them when they all come from one front session of one caller (the same client is
 * asked either way), and is refused when they come from several (guessing would show one caller's
 * question to another).
 */
import { randomBytes } from "node:crypto";
import type { ClientFeatures, ServerRequestContext } from "../client/features.js";
import { ErrorCode, McpError } from "../jsonrpc/errors.js";
import type { Root } from "../protocol/types/client-features.js";
import type { ClientCapabilities } from "../protocol/types/lifecycle.js";
import type { CallToolResult } from "../protocol/types/tools.js";
import type { RequestContext } from "../server/context.js";
import type { InputMethod } from "../server/input-round.js";
import { InFlight } from "./in-flight.js";
import { SignalPool } from "./signal-pool.js";
import { UpstreamTasks } from "./task-questions.js";

/** What the proxy declares to every upstream: all it can forward to its clients. */
export const FORWARDED_CAPABILITIES: ClientCapabilities = {
  sampling: { tools: {}, context: {} },
  elicitation: { form: {}, url: {} },
  roots: { listChanged: true },
};

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

/**
 * The calls in flight, per upstream, and the stateless ones waiting for their caller's next round.
 * It answers the upstreams' questions (`features(server)` are the client features of one).
 */
export class ForwardedCalls {
  /**
   * Per upstream. A stateless upstream's questions carry the signal their call was made with,
   * which finds it there (a `Map` by signal, or a `WeakMap`, cost the collector more per call).
   */
  private readonly inFlight = new Map<string, InFlight<ForwardedCall>>();
  /** Calls of stateless callers, by id, until they end or time out. */
  private readonly waiting = new Map<string, { call: ForwardedCall; timer: NodeJS.Timeout }>();
  /** Front tasks following an upstream task, by that task's id (see `UpstreamTasks`). */
  readonly tasks = new UpstreamTasks();
  /** The controllers of forwarded calls, used again. */
  readonly signals = new SignalPool();

  constructor(
    /** How long a stateless caller may take to come back with answers, in ms. */
    private readonly inputTimeout = 10 * 60_000,
  ) {}

  /**
   * Starts tracking `call`, made to `server`, until `untrack`. A server's list stays once made
   * (the upstreams are those configured).
   */
  track(server: string, call: ForwardedCall): void {
    let calls = this.inFlight.get(server);
    if (calls === undefined) {
      calls = new InFlight<ForwardedCall>();
      this.inFlight.set(server, calls);
    }
    calls.add(call);
  }

  /**
   * Stops tracking `call`. A call kept for its caller's next round stays kept: it may end while
   * the caller answers a question it asked (one the upstream did not wait for), and that round
   * then takes its outcome.
   */
  untrack(server: string, call: ForwardedCall): void {
    this.inFlight.get(server)?.delete(call);
  }

  /**
   * Keeps a stateless caller's call for its next round, once it asks the caller something, until a
   * round takes its outcome (`forget`); it is cancelled and dropped if the caller does not come
   * back within `inputTimeout`, even once ended (its last round then records it abandoned).
   */
  keep(call: ForwardedCall): void {
    if (!call.stateless || this.waiting.has(call.id)) return;
    const timer = setTimeout(() => {
      this.forget(call);
      call.abandon();
    }, this.inputTimeout);
    timer.unref();
    this.waiting.set(call.id, { call, timer });
  }

  /** Drops a kept call: a round took its outcome, or its caller did not come back in time. */
  forget(call: ForwardedCall): void {
    const id = call.knownId;
    if (id === undefined) return;
    const entry = this.waiting.get(id);
    if (entry?.call === call) {
      clearTimeout(entry.timer);
      this.waiting.delete(id);
    }
  }

  /** The stateless call `id` names, if it still runs or its outcome was not taken yet. */
  waitingCall(id: string): ForwardedCall | undefined {
    return this.waiting.get(id)?.call;
  }

  /** Aborts every call (the proxy is closing). */
  close(): void {
    for (const { call } of this.waiting.values()) call.controller?.abort(new Error("The proxy closed"));
  }

  /** The call a question of `server` belongs to, or why none can be told. */
  private async callOf(
    server: string,
    signal: AbortSignal,
    method: string,
    params: Record<string, unknown>,
  ): Promise<ForwardedCall> {
    const calls = this.inFlight.get(server);
    const own = calls?.withSignal(signal) ?? (await this.tasks.callOf(server, params, signal));
    if (own) return own;
    const call = calls && oneFront(calls);
    if (call) return call;
    throw new McpError(
      ErrorCode.InvalidRequest,
      calls === undefined || calls.size === 0
        ? `${method} outside a tool call: the proxy has no client to ask`
        : `${method} cannot be forwarded: ${calls.size} calls of several clients of the proxy are in flight to this server, and the request names none of them (a request of a 2025-11-25 session names no call: give each client its own proxy, or use an upstream of the 2026-07-28 era, whose questions travel within their call)`,
    );
  }

  /** The call the message of `server` belongs to, when its client can be told. */
  soleCall(server: string): ForwardedCall | undefined {
    const calls = this.inFlight.get(server);
    return calls && oneFront(calls);
  }

  /** The client features of the connection to `server`: each question goes to its call's caller. */
  features(server: string): ClientFeatures {
    const forward =
      (method: InputMethod) =>
      async (params: Record<string, unknown>, ctx: ServerRequestContext): Promise<object> =>
        (await this.callOf(server, ctx.signal, method, params)).ask(method, params, ctx.signal);
    return {
      sampling: { handler: forward("sampling/createMessage") as never, tools: true, context: true },
      elicitation: { handler: forward("elicitation/create") as never, form: true, url: true },
      roots: async (ctx): Promise<Root[]> => {
        // A shared connection belongs to no one client: outside a call it has no roots.
        if (!this.inFlight.get(server)?.size) return [];
        const answer = (await forward("roots/list")({}, ctx)) as { roots: Root[] };
        return answer.roots;
      },
    };
  }
}

/**
 * The call a question goes to when the upstream names none: the only one, or the first when all
 * come from one front session and caller (its client is asked whichever it is).
 */
function oneFront(calls: InFlight<ForwardedCall>): ForwardedCall | undefined {
  let first: ForwardedCall | undefined;
  for (const call of calls) {
    if (first === undefined) first = call;
    else if (call.front.session !== first.front.session || call.caller !== first.caller) return undefined;
  }
  return first;
}
