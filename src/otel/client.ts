import { type Attributes, context, SpanKind, trace } from "@opentelemetry/api";
import type { ClientMiddleware } from "../client/middleware.js";
import {
  ATTR,
  networkAttributes,
  recordError,
  recordToolError,
  resourceUri,
  spanName,
  targetOf,
} from "./attributes.js";
import { usesOwnContextManager } from "./context.js";
import { MetricAttributeSets } from "./metric-attributes.js";
import { instruments, type OtelOptions } from "./options.js";
import { traceparentOf } from "./propagation.js";

/**
 * A client middleware that traces every request the client sends: a `CLIENT` span named
 * `{method} {tool or prompt}` with the MCP semantic conventions' attributes, a child of the active
 * span, whose trace context travels in `params._meta` to the server; and the
 * `mcp.client.operation.duration` histogram. Where the application registered its own context
 * manager (the Node SDK's), the span is active while the request is sent, for the instrumentations
 * of what sends it.
 *
 * @example
 * import { otelClient } from "mcpkit/otel";
 * const client = await McpClient.connect({ command: "node", args: ["server.js"], middleware: [otelClient()] });
 */
export function otelClient(options: OtelOptions = {}): ClientMiddleware {
  const { tracer, duration, propagate } = instruments("client", options);
  const metricSets = new MetricAttributeSets();
  return (ctx, next) => {
    const { method, params } = ctx;
    const target = targetOf(method, params);
    const version = ctx.protocolVersion;
    const network = networkAttributes(ctx.transport);
    const attributes: Attributes = metricSets.spanAttributes(network, method, target, version);
    const sessionId = ctx.sessionId;
    if (sessionId !== undefined) attributes[ATTR.sessionId] = sessionId;
    const uri = resourceUri(method, params);
    if (uri !== undefined) attributes[ATTR.resourceUri] = uri;
    const parent = context.active();
    const span = tracer.startSpan(spanName(method, target), { kind: SpanKind.CLIENT, attributes }, parent);
    if (propagate) {
      const spanContext = span.spanContext();
      const traceparent = traceparentOf(spanContext);
      if (traceparent !== undefined) {
        const tracestate = spanContext.traceState?.serialize();
        ctx.setMeta(tracestate ? { traceparent, tracestate } : { traceparent });
      }
    }
    const started = performance.now();
    const end = (errorType: string | undefined) => {
      span.end();
      duration.record(
        (performance.now() - started) / 1000,
        metricSets.get(network, method, target, version, errorType),
        parent,
      );
    };
    // Nothing of mcpkit reads the client span while the request is sent (it travels in _meta):
    // only the application's own instrumentations might.
    const sent = usesOwnContextManager() ? next() : context.with(trace.setSpan(parent, span), next);
    return sent.then(
      (result) => {
        end(recordToolError(span, result));
        return result;
      },
      (error: unknown) => {
        end(recordError(span, error));
        throw error;
      },
    );
  };
}
