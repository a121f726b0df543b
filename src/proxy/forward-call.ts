/**
 * The last step of a call: forwarding it to its upstream with progress and cancellation, and
 * carrying the upstream's questions (sampling, elicitation, roots) to the caller while it runs.
 *
 * A caller in a session is asked with requests of its own. A stateless (2026-07-28) caller is
 * asked with `inputRequests`: its request ends `input_required` while the upstream call keeps
 * running, and its next round (the same tool, arguments and caller, with the answers) continues
 * that same call rather than starting another, so the upstream runs the call once.
 */
import type { MultiServerTool } from "../client/multi/router.js";
import type { ToolResult } from "../client/tools/tool-result.js";
import { ErrorCode, McpError } from "../jsonrpc/errors.js";
import type { CallToolResult } from "../protocol/types/tools.js";
import { digestArguments } from "./audit.js";
import { asCaller } from "./caller.js";
import { resultOf } from "./forward.js";
import { AbandonedCall, askFront, continuedCallId, ForwardedCall } from "./forwarded-call.js";
import {
  boundedError,
  checkResultSize,
  skippedResultError,
  type UpstreamGate,
  type UpstreamLimits,
} from "./limits.js";
import type { ToolCallContext } from "./middleware.js";
import type { ForwardedCalls } from "./questions.js";

/** What forwarding one tool needs. */
export interface ForwardTarget {
  tool: MultiServerTool;
  gate: UpstreamGate;
  calls: ForwardedCalls;
  limits: UpstreamLimits;
}

/** Who a call is for, to check that a later round comes from the same caller. */
const callerKey = (ctx: ToolCallContext) =>
  ctx.request.auth ? `${ctx.request.auth.subject}\u0000${ctx.request.auth.clientId ?? ""}` : undefined;

/** Forwards the call (or continues the one a stateless round's answers name) and serves its questions. */
export async function forwardCall(target: ForwardTarget, ctx: ToolCallContext): Promise<CallToolResult> {
  const front = ctx.request;
  const stateless = front.request.requestMeta !== undefined;
  let subject: string | undefined;
  const subjectOf = () => {
    subject ??= `${ctx.server}/${ctx.tool} ${digestArguments(ctx.arguments)}`;
    return subject;
  };
  const id = stateless ? continuedCallId(front) : undefined;
  let call: ForwardedCall;
  if (id !== undefined) {
    const found = target.calls.waitingCall(id);
    if (!found) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Invalid params: the call these inputResponses answer for has ended or timed out; call ${ctx.name} again`,
      );
    }
    if (found.caller !== callerKey(ctx) || found.subject() !== subjectOf()) {
      throw new McpError(
        ErrorCode.InvalidParams,
        "Invalid params: these inputResponses are for another call",
      );
    }
    call = found;
    call.front = front;
  } else {
    call = start(target, ctx, subjectOf, stateless);
  }
  // The round's cancellation is passed on while it serves (a stateless call outlives its round),
  // heard without making the round's signal, which nothing else needs.
  const controller = call.controller;
  const round = front.request;
  if (controller) {
    if (round.cancelled) controller.abort(front.signal.reason);
    else round.whenCancelled = (reason) => controller.abort(reason);
  }
  try {
    for (let n = 0; ; ) {
      // Most calls ask nothing: one wait, woken when the call ends.
      const question = call.questions[n];
      if (question === undefined) {
        if (call.ended) break;
        await call.changed();
        continue;
      }
      n++;
      if (question.settled) continue;
      if (stateless) target.calls.keep(call);
      try {
        // A stateless round asking for input waits here until the next round continues the call,
        // or, if the caller never comes back, ends abandoned: its audit line still gets written.
        const asked = askFront(front, call, n - 1, question);
        question.resolve(await (stateless ? Promise.race([asked, call.whenAbandoned()]) : asked));
      } catch (error) {
        question.reject(error);
        if (error instanceof AbandonedCall) throw error;
      }
    }
    // This round answers with the outcome: the call is no longer kept for another.
    if (stateless) target.calls.forget(call);
    const result = call.outcome();
    ctx.resultSize = call.resultSize;
    return result;
  } finally {
    if (controller) round.whenCancelled = undefined;
    call.release();
  }
}

/** Makes the upstream call; its questions queue on the returned `ForwardedCall`. */
function start(
  target: ForwardTarget,
  ctx: ToolCallContext,
  subject: () => string,
  stateless: boolean,
): ForwardedCall {
  const call = new ForwardedCall(ctx.request, callerKey(ctx), subject, stateless, target.calls.signals);
  void upstreamCall(target, ctx, call);
  return call;
}

/**
 * The upstream call, once the gate lets it through, in one async step (a chain of `then`s made
 * several promises per call): the caller is set where it runs, and the call counts as in flight to
 * the upstream (whose questions it may answer) only from then on. Its outcome goes to `call`,
 * read by the rounds once it ends (a promise of it cost every call one more step), so it never
 * rejects: a stateless caller may never come back for the answer.
 */
async function upstreamCall(target: ForwardTarget, ctx: ToolCallContext, call: ForwardedCall): Promise<void> {
  const { tool, gate, calls, limits } = target;
  let tracked = false;
  try {
    let output: ToolResult;
    try {
      const wait = gate.enter(call.signal);
      if (wait) await wait;
      try {
        calls.track(tool.server, call);
        tracked = true;
        output = await asCaller(ctx.request, () =>
          tool.call(ctx.arguments, {
            signal: call.signal,
            onProgress: ({ progress, total, message }) => call.front.progress(progress, total, message),
          }),
        );
      } finally {
        gate.leave();
      }
    } catch (error) {
      throw boundedError(skippedResultError(ctx.server, ctx.tool, error, limits));
    }
    const result = resultOf(output);
    call.resultSize = checkResultSize(ctx.server, ctx.tool, result, limits);
    call.succeed(result);
  } catch (error) {
    call.fail(error);
  } finally {
    if (tracked) calls.untrack(tool.server, call);
    call.end();
  }
}
