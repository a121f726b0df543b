/**
 * One trace across processes and transports: an Agent calls tools through a MultiServerClient, which
 * reaches a proxy over HTTP, which forwards to an upstream server it spawned over stdio. The test's
 * in-memory exporter holds the spans of this process (agent, client, proxy); the upstream, a real
 * child process, writes its own to a file. Parent links are asserted hop by hop, both eras.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterEach, describe, expect, it } from "vitest";
import { callTool, say, scriptedChatModel } from "../../examples/scripted-chat-model.js";
import { Agent } from "../../src/agent/index.js";
import { MultiServerClient } from "../../src/client/index.js";
import { agentTracer, otelClient, otelServer } from "../../src/otel/index.js";
import { createProxyServer } from "../../src/proxy/index.js";

const UPSTREAM = fileURLToPath(new URL("../fixtures/otel-upstream.js", import.meta.url));

interface FileSpan {
  name: string;
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  attributes: Record<string, unknown>;
  status: { code: number; message?: string };
}

let cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  cleanups = [];
});

describe("one trace from the agent to the upstream server", () => {
  for (const protocolVersion of ["2025-11-25", "2026-07-28"] as const) {
    it(`links Agent → MultiServerClient → proxy (HTTP) → upstream (stdio) (${protocolVersion})`, async () => {
      const dir = await mkdtemp(join(tmpdir(), "mcpkit-otel-"));
      cleanups.push(() => rm(dir, { recursive: true, force: true }));
      const spansFile = join(dir, "upstream-spans.jsonl");
      const exporter = new InMemorySpanExporter();
      const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
      const traced = { middleware: [otelClient({ tracerProvider })], protocolVersion };

      const proxy = await createProxyServer({
        upstream: { command: process.execPath, args: [UPSTREAM], env: { SPANS_FILE: spansFile } },
        clientOptions: traced,
      });
      cleanups.push(() => proxy.close());
      proxy.use(otelServer({ tracerProvider }));
      const http = await proxy.serveHttp({ port: 0 });
      cleanups.push(() => http.close());

      const mcp = await MultiServerClient.connect({ gateway: { url: http.url } }, { clientOptions: traced });
      cleanups.push(() => mcp.close());
      const tools = mcp.tools();
      const weather = tools.find((tool) => tool.name.endsWith("get_weather"))!;
      const forecast = tools.find((tool) => tool.name.endsWith("get_forecast"))!;
      const model = scriptedChatModel([
        () => ({
          ...callTool(weather.name, { city: "Paris" }),
          toolCalls: [
            ...callTool(weather.name, { city: "Paris" }).toolCalls!,
            ...callTool(forecast.name, {}).toolCalls!,
          ],
        }),
        () => say("Sunny in Paris; no forecast."),
      ]);
      const agent = new Agent({
        model,
        tools,
        tracer: agentTracer({ tracerProvider, agentName: "weather-agent" }),
      });
      expect((await agent.run("Weather in Paris?")).output).toBe("Sunny in Paris; no forecast.");

      const local = exporter.getFinishedSpans();
      const upstream = (await readFile(spansFile, "utf8"))
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as FileSpan);
      const find = (name: string, kind: SpanKind) => {
        const found = local.filter((span) => span.name === name && span.kind === kind);
        expect(found.length, `spans named ${name} (${SpanKind[kind]})`).toBeGreaterThan(0);
        return found;
      };

      const run = find("invoke_agent weather-agent", SpanKind.INTERNAL)[0]!;
      const traceId = run.spanContext().traceId;
      const tool = find(`execute_tool ${weather.name}`, SpanKind.INTERNAL)[0]!;
      expect(tool.parentSpanContext?.spanId).toBe(run.spanContext().spanId);
      // Two hops of tools/call get_weather in this process: the agent's client, the proxy's client.
      const clients = find("tools/call get_weather", SpanKind.CLIENT);
      expect(clients).toHaveLength(2);
      const [agentSide, proxySide] = [
        clients.find((span) => span.parentSpanContext?.spanId === tool.spanContext().spanId)!,
        clients.find((span) => span.parentSpanContext?.spanId !== tool.spanContext().spanId)!,
      ];
      expect(agentSide, "the MultiServerClient's span under the agent's tool span").toBeDefined();
      const proxyServer = find("tools/call get_weather", SpanKind.SERVER)[0]!;
      expect(proxyServer.parentSpanContext?.spanId).toBe(agentSide.spanContext().spanId);
      expect(proxySide.parentSpanContext?.spanId).toBe(proxyServer.spanContext().spanId);
      const upstreamServer = upstream.find(
        (span) => span.name === "tools/call get_weather" && span.kind === SpanKind.SERVER,
      )!;
      expect(upstreamServer.parentSpanId).toBe(proxySide.spanContext().spanId);
      for (const span of [tool, agentSide, proxyServer, proxySide])
        expect(span.spanContext().traceId).toBe(traceId);
      expect(upstreamServer.traceId).toBe(traceId);

      // The conventions' attributes on each hop.
      expect(agentSide.attributes).toMatchObject({
        "mcp.method.name": "tools/call",
        "gen_ai.tool.name": "get_weather",
        "gen_ai.operation.name": "execute_tool",
        "network.transport": "tcp",
        "server.address": "127.0.0.1",
        "server.port": Number(new URL(http.url).port),
        "mcp.protocol.version": protocolVersion,
      });
      expect(proxyServer.attributes).toMatchObject({
        "mcp.method.name": "tools/call",
        "gen_ai.tool.name": "get_weather",
        "jsonrpc.request.id": expect.any(String),
        "network.transport": "tcp",
      });
      if (protocolVersion === "2025-11-25")
        expect(proxyServer.attributes["mcp.session.id"]).toEqual(expect.any(String));
      expect(proxySide.attributes).toMatchObject({
        "network.transport": "pipe",
        "gen_ai.tool.name": "get_weather",
      });
      expect(upstreamServer.attributes).toMatchObject({
        "mcp.method.name": "tools/call",
        "gen_ai.tool.name": "get_weather",
        "jsonrpc.request.id": expect.any(String),
        "network.transport": "pipe",
        "mcp.protocol.version": protocolVersion,
      });

      // The refused call is an error on every hop, with the upstream's JSON-RPC code where it is one.
      const failedUpstream = upstream.find((span) => span.name === "tools/call get_forecast")!;
      expect(failedUpstream.attributes["error.type"]).toBe("-32603");
      expect(failedUpstream.attributes["rpc.response.status_code"]).toBe("-32603");
      expect(failedUpstream.status.code).toBe(SpanStatusCode.ERROR);
      expect(failedUpstream.status.message).toContain("the forecast service is down");
      for (const kind of [SpanKind.CLIENT, SpanKind.SERVER]) {
        for (const span of find("tools/call get_forecast", kind)) {
          expect(span.status.code, `${span.name} ${SpanKind[kind]}`).toBe(SpanStatusCode.ERROR);
          expect(span.attributes["error.type"]).toBeDefined();
          expect(span.spanContext().traceId).toBe(traceId);
        }
      }
      expect(find(`execute_tool ${forecast.name}`, SpanKind.INTERNAL)[0]!.status.code).toBe(
        SpanStatusCode.ERROR,
      );
      expect(failedUpstream.traceId).toBe(traceId);
    });
  }
});
