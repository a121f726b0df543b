/**
 * A call that waits behind `maxConcurrency` for its upstream (a real process over stdio) is
 * forwarded under its own trace: the proxy's CLIENT span of the upstream call is a child of the
 * proxy's SERVER span of that same call, not of the call that held the gate.
 */
import { fileURLToPath } from "node:url";
import { SpanKind } from "@opentelemetry/api";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
  type Span,
  type SpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterEach, describe, expect, it } from "vitest";
import { McpClient } from "../../src/client/index.js";
import { otelClient, otelServer } from "../../src/otel/index.js";
import { createProxyServer } from "../../src/proxy/index.js";
import { createMemoryTransportPair } from "../../src/transports/memory/index.js";

const ASKING = fileURLToPath(new URL("../fixtures/asking-server.js", import.meta.url));

let cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  cleanups = [];
});

/** Resolves once a span named `name` has started. */
class StartWatcher implements SpanProcessor {
  private readonly waiting = new Map<string, () => void>();
  started(name: string): Promise<void> {
    return new Promise((resolve) => this.waiting.set(name, resolve));
  }
  onStart(span: Span): void {
    this.waiting.get(span.name)?.();
  }
  onEnd(_span: ReadableSpan): void {}
  forceFlush(): Promise<void> {
    return Promise.resolve();
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

describe("a call queued behind maxConcurrency", () => {
  it("is forwarded under its own SERVER span", async () => {
    const exporter = new InMemorySpanExporter();
    const watcher = new StartWatcher();
    const tracerProvider = new BasicTracerProvider({
      spanProcessors: [watcher, new SimpleSpanProcessor(exporter)],
    });
    const proxy = await createProxyServer({
      upstream: { command: process.execPath, args: [ASKING] },
      clientOptions: { protocolVersion: "2025-11-25", middleware: [otelClient({ tracerProvider })] },
      maxConcurrency: 1,
    });
    cleanups.push(() => proxy.close());
    proxy.use(otelServer({ tracerProvider }));
    const [serverSide, clientSide] = createMemoryTransportPair();
    await proxy.connect(serverSide);
    const second = watcher.started("tools/call roots_changed");
    const client = await McpClient.connect({
      transport: clientSide,
      protocolVersion: "2025-11-25",
      // The first call holds the gate until the second has reached the proxy and waits behind it.
      elicitation: async () => {
        await second;
        await turns(20);
        return { action: "accept", content: { name: "Ada" } };
      },
    });
    cleanups.push(() => client.close());
    const first = client.callTool("ask", { label: "a", together: 1 });
    await watcher.started("tools/call ask");
    const results = await Promise.all([first, client.callTool("roots_changed", {})]);
    expect(results.map((result) => result.text())).toEqual(["a: accept Ada", "0"]);

    const spans = exporter.getFinishedSpans();
    for (const tool of ["ask", "roots_changed"]) {
      const server = spans.filter(
        (span) => span.name === `tools/call ${tool}` && span.kind === SpanKind.SERVER,
      );
      const upstream = spans.filter(
        (span) => span.name === `tools/call ${tool}` && span.kind === SpanKind.CLIENT,
      );
      expect(server).toHaveLength(1);
      expect(upstream).toHaveLength(1);
      expect(upstream[0]!.parentSpanContext?.spanId, tool).toBe(server[0]!.spanContext().spanId);
      expect(upstream[0]!.spanContext().traceId).toBe(server[0]!.spanContext().traceId);
    }
  });
});
