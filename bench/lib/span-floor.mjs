// The floor of the OpenTelemetry SDK under a traced call, whatever instruments it: started and
// ended spans and recorded histogram values, in a loop, with the providers of a traced bench
// process (benchTelemetry). bench/instructions.mjs counts it like a call (`--side sdk-span`,
// `--side sdk-call`). `span`: `tracer.startSpan(name).end()`. `call`: what one side of an echo
// `tools/call` asks of the SDK at the least: a span with the conventions' six attributes, and one
// value recorded into the duration histogram with five.
import { benchTelemetry } from "./middleware.mjs";

const { shape, warmup, calls } = JSON.parse(process.argv[2]);
if (shape !== "span" && shape !== "call") throw new Error(`unknown shape ${shape}`);
const { tracerProvider, meterProvider } = await benchTelemetry();
const tracer = tracerProvider.getTracer("floor", "1.0.0");
const duration = meterProvider
  .getMeter("floor", "1.0.0")
  .createHistogram("floor.operation.duration", { unit: "s" });

function tracedCall(i) {
  const metricAttributes = {
    "mcp.method.name": "tools/call",
    "gen_ai.tool.name": "echo",
    "gen_ai.operation.name": "execute_tool",
    "mcp.protocol.version": "2025-11-25",
    "network.transport": "pipe",
  };
  const span = tracer.startSpan("tools/call echo", {
    kind: 1,
    attributes: {
      "mcp.method.name": "tools/call",
      "gen_ai.tool.name": "echo",
      "gen_ai.operation.name": "execute_tool",
      "mcp.protocol.version": "2025-11-25",
      "network.transport": "pipe",
      "jsonrpc.request.id": String(i),
    },
  });
  span.end();
  duration.record(0.0001, metricAttributes);
}

for (let i = 0; i < warmup + calls; i++) {
  if (shape === "span") tracer.startSpan("span").end();
  else tracedCall(i);
  // A call ends in a turn of its own: the batch processor's exports settle between them.
  await null;
}
await tracerProvider.shutdown();
