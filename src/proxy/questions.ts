import type { ClientFeatures, ServerRequestContext } from "../client/features/features.js";
import { ErrorCode, McpError } from "../jsonrpc/errors.js";
import type { Root } from "../protocol/types/client-features.js";
import type { ClientCapabilities } from "../protocol/types/lifecycle.js";
import type { InputMethod } from "../server/sessions/input-round.js";
import type { ForwardedCall } from "./forwarded-call.js";
import { InFlight } from "./in-flight.js";
import { SignalPool } from "./signal-pool.js";
import { UpstreamTasks } from "./task-questions.js";

/** What the proxy declares to every upstream: all it can forward to its clients. */
export const FORWARDED_CAPABILITIES: ClientCapabilities = {
  sampling: { tools: {}, context: {} },
  elicitation: { form: {}, url: {} },
  roots: { listChanged: true },
};

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
