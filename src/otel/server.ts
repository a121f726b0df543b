import { type Attributes, context, SpanKind, trace } from "@opentelemetry/api";
import type { ServerMiddleware } from "../server/middleware.js";
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

/**
 * A server middleware that traces every request and notification the server handles: a `SERVER`
 * span named `{method} {tool or prompt}` with the MCP semantic conventions' attributes, a child of
 * the trace context the client sent in `params._meta`, active while the handler runs (so what it
 * calls is traced under it); and the `mcp.server.operation.duration` histogram.
 *
 * @example
 * import { otelServer } from "mcpkit/otel";
 * server.use(otelServer());
 */
export function otelServer(options: OtelOptions = {}): ServerMiddleware {
  const { tracer, duration, propagate } = instruments("server", options);
  return async (ctx, next) => {
    const { method, params } = ctx;
    const meta = ctx.meta;
    const parent =
      propagate && meta !== undefined ? metaPropagator.extract(context.active(), meta) : context.active();
    const target = targetOf(method, params);
    const metricAttributes: Attributes = requestAttributes(method, target);
    const version = ctx.request?.revision?.version;
    if (version !== undefined) metricAttributes[ATTR.protocolVersion] = version;
    Object.assign(metricAttributes, networkAttributes(ctx.session.peer.transport));
    const attributes: Attributes = { ...metricAttributes };
    const id = ctx.requestId;
    if (id !== undefined) attributes[ATTR.requestId] = String(id);
    const sessionId = ctx.sessionId;
    if (sessionId !== undefined) attributes[ATTR.sessionId] = sessionId;
    const uri = resourceUri(method, params);
    if (uri !== undefined) attributes[ATTR.resourceUri] = uri;
    const span = tracer.startSpan(spanName(method, target), { kind: SpanKind.SERVER, attributes }, parent);
    const started = performance.now();
    try {
      const result = await context.with(trace.setSpan(parent, span), next);
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
