/**
 * A stateless (2026-07-28) caller's call kept for its next round: it stays kept once the upstream
 * call ended (the caller may still be answering a question it asked), until a round takes its
 * outcome or `inputTimeout` passes, so an ended call is neither lost to its caller nor kept forever.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { ForwardedCall } from "../../src/proxy/forwarded-call.js";
import { ForwardedCalls } from "../../src/proxy/questions.js";
import type { RequestContext } from "../../src/server/sessions/context.js";

afterEach(() => {
  vi.useRealTimers();
});

/** A kept stateless call to `server` that asked one question and then ended. */
function endedKeptCall(calls: ForwardedCalls): ForwardedCall {
  const call = new ForwardedCall({} as RequestContext, undefined, () => "s/t {}", true, calls.signals);
  calls.track("s", call);
  void call.ask("roots/list", {}, new AbortController().signal).catch(() => {});
  calls.keep(call);
  call.succeed({ content: [] });
  calls.untrack("s", call);
  call.end();
  return call;
}

describe("ForwardedCalls: a kept call", () => {
  it("stays found once it ended, until a round takes its outcome", () => {
    const calls = new ForwardedCalls();
    const call = endedKeptCall(calls);
    expect(calls.waitingCall(call.id)).toBe(call);
    calls.forget(call);
    expect(calls.waitingCall(call.id)).toBeUndefined();
  });

  it("is dropped once inputTimeout passes, though it ended", () => {
    vi.useFakeTimers();
    const calls = new ForwardedCalls(1_000);
    const call = endedKeptCall(calls);
    vi.advanceTimersByTime(999);
    expect(calls.waitingCall(call.id)).toBe(call);
    vi.advanceTimersByTime(1);
    expect(calls.waitingCall(call.id)).toBeUndefined();
  });
});
