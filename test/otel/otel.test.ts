/**
 * Tracing with mcpkit/otel in one process: client and server spans with the MCP semantic
 * conventions' attributes, one trace through `_meta`, errors and tool errors marked, the duration
 * histograms, both eras; and the agent's spans above the client's.
 */
import { context, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { MeterProvider, MetricReader } from "@opentelemetry/sdk-metrics";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { describe, expect, it } from "vitest";
import { callTool, say, scriptedChatModel } from "../../examples/scripted-chat-model.js";
import { Agent } from "../../src/agent/index.js";
import { ErrorCode, McpError } from "../../src/jsonrpc/errors.js";
import { agentTracer, instrument, metaPropagator, otelClient, otelServer } from "../../src/otel/index.js";
import { McpServer } from "../../src/server/index.js";
import { connectInMemory } from "../helpers/connect.js";

class TestReader extends MetricReader {
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}

function telemetry() {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const reader = new TestReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  return { exporter, tracerProvider, reader, meterProvider };
}

function weatherServer() {
  return new McpServer({ name: "weather", version: "1" })
    .tool("get_weather", {}, () => "sunny")
    .tool("broken", {}, () => {
      throw new Error("tool failed");
    })
    .resource("note://a", { name: "a" }, () => "A");
}

const byName = (spans: ReturnType<InMemorySpanExporter["getFinishedSpans"]>, name: string, kind: SpanKind) =>
  spans.find((span) => span.name === name && span.kind === kind);

describe("mcpkit/otel", () => {
  for (const protocolVersion of ["2025-11-25", "2026-07-28"] as const) {
    it(`gives a client and a server span per request, one trace through _meta (${protocolVersion})`, async () => {
      const { exporter, tracerProvider, reader, meterProvider } = telemetry();
      const server = weatherServer().use(otelServer({ tracerProvider, meterProvider }));
      const { client } = await connectInMemory(server, {
        protocolVersion,
        middleware: [otelClient({ tracerProvider, meterProvider })],
      });
      expect((await client.callTool("get_weather", { city: "Paris" })).text()).toBe("sunny");
      expect((await client.callTool("broken")).isError).toBe(true);
      const refused = await client.readResource("note://missing").catch((e) => e);
      expect(refused).toBeInstanceOf(McpError);
      await client.close();

      const spans = exporter.getFinishedSpans();
      const clientSpan = byName(spans, "tools/call get_weather", SpanKind.CLIENT)!;
      const serverSpan = byName(spans, "tools/call get_weather", SpanKind.SERVER)!;
      expect(clientSpan).toBeDefined();
      expect(serverSpan.spanContext().traceId).toBe(clientSpan.spanContext().traceId);
      expect(serverSpan.parentSpanContext?.spanId).toBe(clientSpan.spanContext().spanId);
      expect(clientSpan.attributes).toMatchObject({
        "mcp.method.name": "tools/call",
        "gen_ai.tool.name": "get_weather",
        "gen_ai.operation.name": "execute_tool",
        "mcp.protocol.version": protocolVersion,
      });
      expect(serverSpan.attributes).toMatchObject({
        "mcp.method.name": "tools/call",
        "gen_ai.tool.name": "get_weather",
        "jsonrpc.request.id": expect.any(String),
        "mcp.protocol.version": protocolVersion,
      });
      expect(serverSpan.status.code).toBe(SpanStatusCode.UNSET);

      for (const kind of [SpanKind.CLIENT, SpanKind.SERVER]) {
        const broken = byName(spans, "tools/call broken", kind)!;
        expect(broken.attributes["error.type"]).toBe("tool_error");
        expect(broken.status.code).toBe(SpanStatusCode.ERROR);
        const read = byName(spans, "resources/read", kind)!;
        expect(read.attributes["mcp.resource.uri"]).toBe("note://missing");
        expect(read.attributes["error.type"]).toBe(String(refused.code));
        expect(read.attributes["rpc.response.status_code"]).toBe(String(refused.code));
        expect(read.status).toMatchObject({ code: SpanStatusCode.ERROR });
        expect(read.status.message).toContain("note://missing");
      }

      const { resourceMetrics } = await reader.collect();
      const metrics = resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics);
      for (const side of ["client", "server"]) {
        const histogram = metrics.find((m) => m.descriptor.name === `mcp.${side}.operation.duration`)!;
        expect(histogram.descriptor.unit).toBe("s");
        const calls = histogram.dataPoints.filter(
          (point) => point.attributes["mcp.method.name"] === "tools/call",
        );
        const count = calls.reduce((sum, point) => sum + (point.value as { count: number }).count, 0);
        expect(count).toBe(2);
        expect(calls.some((point) => point.attributes["error.type"] === "tool_error")).toBe(true);
      }
    });
  }

  it("marks a JSON-RPC error thrown by a handler, and spans notifications", async () => {
    const { exporter, tracerProvider } = telemetry();
    const server = weatherServer()
      .tool("refuse", {}, () => "never")
      .use("tools/call", (ctx, next) => {
        if (ctx.params.name === "refuse") throw new McpError(ErrorCode.InvalidParams, "refused here");
        return next();
      });
    server.use(otelServer({ tracerProvider }));
    const { client } = await connectInMemory(server, { middleware: [otelClient({ tracerProvider })] });
    await client.callTool("refuse").catch(() => {});
    await client.close();
    const spans = exporter.getFinishedSpans();
    const failed = byName(spans, "tools/call refuse", SpanKind.CLIENT)!;
    expect(failed.attributes["rpc.response.status_code"]).toBe(String(ErrorCode.InvalidParams));
    expect(failed.status.message).toContain("refused here");
    expect(byName(spans, "notifications/initialized", SpanKind.SERVER)).toBeDefined();
  });

  it("puts an agent's run, model calls and tool calls above the MCP spans", async () => {
    const { exporter, tracerProvider } = telemetry();
    const server = weatherServer().use(otelServer({ tracerProvider }));
    const { client } = await connectInMemory(server, { middleware: [otelClient({ tracerProvider })] });
    const model = scriptedChatModel([
      () => callTool("get_weather", { city: "Paris" }),
      () => say("It is sunny."),
    ]);
    const agent = new Agent({
      model,
      tools: await client.asTools(),
      tracer: agentTracer({ tracerProvider, agentName: "forecaster", model: "scripted" }),
    });
    expect((await agent.run("Weather in Paris?")).output).toBe("It is sunny.");
    await client.close();
    const spans = exporter.getFinishedSpans();
    const run = byName(spans, "invoke_agent forecaster", SpanKind.INTERNAL)!;
    const chats = spans.filter((span) => span.name === "chat scripted");
    const tool = byName(spans, "execute_tool get_weather", SpanKind.INTERNAL)!;
    const call = byName(spans, "tools/call get_weather", SpanKind.CLIENT)!;
    const served = byName(spans, "tools/call get_weather", SpanKind.SERVER)!;
    expect(chats).toHaveLength(2);
    for (const chat of chats) expect(chat.parentSpanContext?.spanId).toBe(run.spanContext().spanId);
    expect(tool.parentSpanContext?.spanId).toBe(run.spanContext().spanId);
    expect(call.parentSpanContext?.spanId).toBe(tool.spanContext().spanId);
    expect(served.parentSpanContext?.spanId).toBe(call.spanContext().spanId);
    const traced = [run, ...chats, tool, call, served];
    expect(new Set(traced.map((span) => span.spanContext().traceId)).size).toBe(1);
  });

  it("instrument() traces a server and a client", async () => {
    const { exporter, tracerProvider } = telemetry();
    const server = instrument(weatherServer(), { tracerProvider });
    const { client } = await connectInMemory(server);
    instrument(client, { tracerProvider });
    await client.callTool("get_weather");
    await client.close();
    const names = exporter.getFinishedSpans().map((span) => `${SpanKind[span.kind]} ${span.name}`);
    expect(names).toContain("CLIENT tools/call get_weather");
    expect(names).toContain("SERVER tools/call get_weather");
  });

  it("carries traceparent and tracestate in _meta, and ignores a malformed traceparent", () => {
    const parent = trace.setSpanContext(ROOT_CONTEXT, {
      traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
      spanId: "00f067aa0ba902b7",
      traceFlags: 1,
    });
    const meta: Record<string, unknown> = {};
    metaPropagator.inject(context.active(), meta);
    expect(meta).toEqual({});
    metaPropagator.inject(parent, meta);
    expect(meta).toEqual({ traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01" });
    const extracted = trace.getSpanContext(
      metaPropagator.extract(ROOT_CONTEXT, { ...meta, tracestate: "rojo=00f067aa0ba902b7" }),
    )!;
    expect(extracted).toMatchObject({ traceId: "4bf92f3577b34da6a3ce929d0e0e4736", isRemote: true });
    expect(extracted.traceState?.get("rojo")).toBe("00f067aa0ba902b7");
    for (const bad of ["00-xyz", `00-${"0".repeat(32)}-${"0".repeat(16)}-01`, 42]) {
      expect(
        trace.getSpanContext(metaPropagator.extract(ROOT_CONTEXT, { traceparent: bad })),
      ).toBeUndefined();
    }
  });
});
