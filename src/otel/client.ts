import type { Attributes } from "@opentelemetry/api";
import type { ClientMiddleware } from "../client/requests/middleware.js";
import type { Meta } from "../protocol/types/base.js";
import { api } from "./api.js";
import {
  ATTR,
  networkAttributes,
  recordError,
  recordToolError,
  requestAttributes,
  resourceUri,
  spanName,
  targetOf,
} from "./attributes.js";
import { instruments, type OtelOptions } from "./options.js";
import { metaPropagator } from "./propagation.js";

const { context, SpanKind, trace } = api;

/**
 * A client middleware that traces every request the client sends: a `CLIENT` span named
 * `{method} {tool or prompt}` with the MCP semantic conventions' attributes, a child of the active
 * span, whose trace context travels in `params._meta` to the server; and the
 * `mcp.client.operation.duration` histogram.
 *
 * @example
 * import { otelClient } from "mcpkit/otel";
 * const client = await McpClient.connect({ command: "node", args: ["server.js"], middleware: [otelClient()] });
 */
export function otelClient(options: OtelOptions = {}): ClientMiddleware {
  const { tracer, duration, propagate } = instruments("client", options);
  return async (ctx, next) => {
    const { method, params } = ctx;
    const target = targetOf(method, params);
    const metricAttributes: Attributes = requestAttributes(method, target);
    metricAttributes[ATTR.protocolVersion] = ctx.protocolVersion;
    Object.assign(metricAttributes, networkAttributes(ctx.transport));
    const attributes: Attributes = { ...metricAttributes };
    const sessionId = ctx.sessionId;
    if (sessionId !== undefined) attributes[ATTR.sessionId] = sessionId;
    const uri = resourceUri(method, params);
    if (uri !== undefined) attributes[ATTR.resourceUri] = uri;
    const parent = context.active();
    const span = tracer.startSpan(spanName(method, target), { kind: SpanKind.CLIENT, attributes }, parent);
    const active = trace.setSpan(parent, span);
    if (propagate) {
      const carrier: Meta = {};
      metaPropagator.inject(active, carrier);
      if (carrier.traceparent !== undefined) ctx.setMeta(carrier);
    }
    const started = performance.now();
    try {
      const result = await context.with(active, next);
      const toolError = recordToolError(span, result);
      if (toolError) metricAttributes[ATTR.errorType] = toolError;
      return result;
    } catch (error) {
      metricAttributes[ATTR.errorType] = recordError(span, error);
      throw error;
    } finally {
      span.end();
      duration.record((performance.now() - started) / 1000, metricAttributes);
    }
  };
}
