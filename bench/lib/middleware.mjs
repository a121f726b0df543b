// What mcpkit's bench server and client put around their calls, chosen by MCPKIT_BENCH_MIDDLEWARE:
// unset, nothing; `noop3`, three middlewares that only call next(); `otel`, mcpkit/otel with a
// tracer provider that records every span (to an exporter that drops them) and a meter provider.
const CHOICE = process.env.MCPKIT_BENCH_MIDDLEWARE ?? "";

export async function benchMiddleware(side) {
  if (CHOICE === "") return [];
  if (CHOICE === "noop3") return [0, 1, 2].map(() => (_ctx, next) => next());
  if (CHOICE !== "otel") throw new Error(`unknown MCPKIT_BENCH_MIDDLEWARE ${CHOICE}`);
  const [{ BasicTracerProvider, SimpleSpanProcessor }, { MeterProvider, MetricReader }, otel] =
    await Promise.all([
      import("@opentelemetry/sdk-trace-base"),
      import("@opentelemetry/sdk-metrics"),
      import("mcpkit/otel"),
    ]);
  const dropped = { export: (_spans, done) => done({ code: 0 }), shutdown: async () => {} };
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(dropped)] });
  class Reader extends MetricReader {
    async onForceFlush() {}
    async onShutdown() {}
  }
  const meterProvider = new MeterProvider({ readers: [new Reader()] });
  const options = { tracerProvider, meterProvider };
  return [side === "server" ? otel.otelServer(options) : otel.otelClient(options)];
}
