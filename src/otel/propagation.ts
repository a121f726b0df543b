import type { Context, SpanContext } from "@opentelemetry/api";
import { api } from "./api.js";

const { createTraceState, INVALID_SPANID, INVALID_TRACEID, isSpanContextValid, TraceFlags, trace } = api;

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(?:-|$)/;

/** The W3C `traceparent` of a span context; `undefined` for an invalid one. */
function traceparentOf(span: SpanContext): string | undefined {
  if (!isSpanContextValid(span)) return undefined;
  return `00-${span.traceId}-${span.spanId}-${span.traceFlags & TraceFlags.SAMPLED ? "01" : "00"}`;
}

/** Puts a context's trace context into a `_meta` object, and reads it back. */
export interface MetaPropagator {
  inject(ctx: Context, meta: Record<string, unknown>): void;
  extract(ctx: Context, meta: Readonly<Record<string, unknown>>): Context;
}

/**
 * W3C Trace Context in `params._meta` (`traceparent`, `tracestate`), as the MCP semantic
 * conventions propagate it. Built in, so propagation needs no registered propagator.
 */
export const metaPropagator: MetaPropagator = {
  inject(ctx: Context, carrier: Record<string, unknown>): void {
    const span = trace.getSpanContext(ctx);
    if (!span) return;
    const traceparent = traceparentOf(span);
    if (traceparent === undefined) return;
    carrier.traceparent = traceparent;
    const state = span.traceState?.serialize();
    if (state) carrier.tracestate = state;
  },

  extract(ctx: Context, carrier: Readonly<Record<string, unknown>>): Context {
    const header = carrier.traceparent;
    if (typeof header !== "string") return ctx;
    const match = TRACEPARENT.exec(header.trim());
    if (!match) return ctx;
    const spanContext: SpanContext = {
      traceId: match[1]!,
      spanId: match[2]!,
      traceFlags: Number.parseInt(match[3]!, 16) & TraceFlags.SAMPLED,
      isRemote: true,
    };
    // The expression checked the digits; what is left of the API's validation is the zero ids.
    if (spanContext.traceId === INVALID_TRACEID || spanContext.spanId === INVALID_SPANID) return ctx;
    if (typeof carrier.tracestate === "string") spanContext.traceState = createTraceState(carrier.tracestate);
    return trace.setSpanContext(ctx, spanContext);
  },
};
