// OpenTelemetry: a client and a server traced with mcpkit/otel, one trace across both (the
// client's trace context travels in `params._meta`), printed as a tree when the spans end. Bring
// your own SDK and exporter; here @opentelemetry/sdk-trace-base with an exporter of our own.
// Usage: node build/examples/tracing.js
import { SpanKind } from "@opentelemetry/api";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { McpClient } from "mcpkit/client";
import { otelClient, otelServer } from "mcpkit/otel";
import { McpServer } from "mcpkit/server";
import { createMemoryTransportPair } from "mcpkit/transports/memory";
import { z } from "zod";

const exporter = new InMemorySpanExporter();
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

const server = new McpServer({ name: "weather", version: "1.0.0" })
  .tool(
    "get_weather",
    { description: "The weather in a city", input: z.object({ city: z.string() }) },
    ({ city }) =>
      city === "Atlantis"
        ? { content: [{ type: "text", text: "no such city" }], isError: true }
        : `sunny in ${city}`,
  )
  .use(otelServer({ tracerProvider }));

const [clientSide, serverSide] = createMemoryTransportPair();
await server.connect(serverSide);
const client = await McpClient.connect({
  transport: clientSide,
  protocolVersion: "2026-07-28",
  middleware: [otelClient({ tracerProvider })],
});
console.log((await client.callTool("get_weather", { city: "Paris" })).text());
console.log((await client.callTool("get_weather", { city: "Atlantis" })).text());
await client.close();

/** Each span under its parent, with the attributes the MCP semantic conventions name. */
function print(spans: ReadableSpan[], parent: string | undefined, depth: number): void {
  for (const span of spans.filter((s) => s.parentSpanContext?.spanId === parent)) {
    const { attributes } = span;
    const shown = ["gen_ai.tool.name", "mcp.protocol.version", "jsonrpc.request.id", "error.type"]
      .filter((key) => attributes[key] !== undefined)
      .map((key) => `${key}=${attributes[key]}`);
    console.log(`${"  ".repeat(depth)}${SpanKind[span.kind]} ${span.name}  ${shown.join(" ")}`);
    print(spans, span.spanContext().spanId, depth + 1);
  }
}
const calls = exporter.getFinishedSpans().filter((span) => span.name.startsWith("tools/call"));
print(calls, undefined, 0);
