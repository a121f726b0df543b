import type { Histogram, MeterProvider, Tracer, TracerProvider } from "@opentelemetry/api";
import { VERSION } from "../version.js";
import { api } from "./api.js";
import { DURATION_BUCKETS } from "./attributes.js";
import { ensureContextManager } from "./context.js";

const { metrics, trace } = api;

/** Options of `otelServer`, `otelClient` and `agentTracer`. */
export interface OtelOptions {
  /** Where spans go; default the global tracer provider (`trace.setGlobalTracerProvider`). */
  tracerProvider?: TracerProvider;
  /** Where the duration histograms go; default the global meter provider. */
  meterProvider?: MeterProvider;
  /**
   * Whether trace context travels in `params._meta` (`traceparent`, `tracestate`): injected by the
   * client, taken as the parent by the server. Default true.
   */
  propagate?: boolean;
}

/** What one instrumented side records with. */
interface Instruments {
  readonly tracer: Tracer;
  readonly duration: Histogram;
  readonly propagate: boolean;
}

const SCOPE = "mcpkit";

/** The tracer and the `mcp.{side}.operation.duration` histogram (seconds) of one side. */
export function instruments(side: "client" | "server", options: OtelOptions = {}): Instruments {
  ensureContextManager();
  const tracer = (options.tracerProvider ?? trace.getTracerProvider()).getTracer(SCOPE, VERSION);
  const meter = (options.meterProvider ?? metrics.getMeterProvider()).getMeter(SCOPE, VERSION);
  const duration = meter.createHistogram(`mcp.${side}.operation.duration`, {
    description:
      side === "client"
        ? "The duration of the MCP request or notification as observed on the sender from the time it was sent until the response or ack is received."
        : "MCP request or notification duration as observed on the receiver from the time it was received until the result or ack is sent.",
    unit: "s",
    advice: { explicitBucketBoundaries: DURATION_BUCKETS },
  });
  return { tracer, duration, propagate: options.propagate !== false };
}
