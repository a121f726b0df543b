// What mcpkit's bench server and client put around their calls, chosen by MCPKIT_BENCH_MIDDLEWARE:
// unset, nothing; `noop3`, three middlewares that only call next(); `otel`, mcpkit/otel recording
// every span and both histograms (benchTelemetry below).
const CHOICE = process.env.MCPKIT_BENCH_MIDDLEWARE ?? "";

/**
 * The tracer and meter providers of a traced bench process, set up as in production: every span
 * sampled and ended into the SDK's BatchSpanProcessor (the processor a service exports with), whose
 * exporter drops the batches: what an exporter costs depends on the exporter (and runs once per
 * 512 spans), not on mcpkit. The metric reader never collects (a periodic one collects once a
 * minute): what is counted is recording into the histograms.
 */
export async function benchTelemetry() {
  const [{ BasicTracerProvider, BatchSpanProcessor }, { MeterProvider, MetricReader }] = await Promise.all([
    import("@opentelemetry/sdk-trace-base"),
    import("@opentelemetry/sdk-metrics"),
  ]);
  const dropped = { export: (_spans, done) => done({ code: 0 }), shutdown: async () => {} };
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(dropped)] });
  class Reader extends MetricReader {
    async onForceFlush() {}
    async onShutdown() {}
  }
  const meterProvider = new MeterProvider({ readers: [new Reader()] });
  return { tracerProvider, meterProvider };
}

export async function benchMiddleware(side) {
  if (CHOICE === "") return [];
  if (CHOICE === "noop3") return [0, 1, 2].map(() => (_ctx, next) => next());
  if (CHOICE !== "otel") throw new Error(`unknown MCPKIT_BENCH_MIDDLEWARE ${CHOICE}`);
  const [options, otel] = await Promise.all([benchTelemetry(), import("mcpkit/otel")]);
  return [side === "server" ? otel.otelServer(options) : otel.otelClient(options)];
}
