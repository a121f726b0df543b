import type { Attributes } from "@opentelemetry/api";
import type { ServerMiddleware } from "../server/dispatch/middleware.js";
import { placed } from "../server/dispatch/order.js";
import { api } from "./api.js";
import {
  ATTR,
  networkAttributes,
  recordError,
  recordToolError,
  resourceUri,
  spanName,
  targetOf,
} from "./attributes.js";
import { MetricAttributeSets } from "./metric-attributes.js";
import { instruments, type OtelOptions } from "./options.js";
import { metaPropagator } from "./propagation.js";

const { context, SpanKind, trace } = api;

/**
 * A server middleware that traces every request and notification the server handles: a `SERVER`
 * span named `{method} {tool or prompt}` with the MCP semantic conventions' attributes, a child of
 * the trace context the client sent in `params._meta`, active while the handler runs (so what it
 * calls is traced under it); and the `mcp.server.operation.duration` histogram. It runs at the
 * `tracing` place of `MIDDLEWARE_ORDER`, outside every other middleware, whenever it is added.
 *
 * @example
 * import { otelServer } from "mcpkit/otel";
 * server.use(otelServer());
 */
export function otelServer(options: OtelOptions = {}): ServerMiddleware {
  const { tracer, duration, propagate } = instruments("server", options);
  const metricSets = new MetricAttributeSets();
  const middleware: ServerMiddleware = (ctx, next) => {
    const { method, params } = ctx;
    const meta = params._meta;
    let parent = context.active();
    // A request without trace context keeps the active one: no context is made for it.
    if (propagate && meta !== undefined && meta.traceparent !== undefined)
      parent = metaPropagator.extract(parent, meta);
    const target = targetOf(method, params);
    const request = ctx.request;
    const version = request?.revision?.version;
    const network = networkAttributes(ctx.session.peer.transport);
    const attributes: Attributes = metricSets.spanAttributes(network, method, target, version);
    const id = request?.requestId;
    if (id !== undefined) attributes[ATTR.requestId] = typeof id === "string" ? id : String(id);
    const sessionId = ctx.sessionId;
    if (sessionId !== undefined) attributes[ATTR.sessionId] = sessionId;
    const uri = resourceUri(method, params);
    if (uri !== undefined) attributes[ATTR.resourceUri] = uri;
    const span = tracer.startSpan(spanName(method, target), { kind: SpanKind.SERVER, attributes }, parent);
    const started = performance.now();
    const end = (errorType: string | undefined) => {
      span.end();
      duration.record(
        (performance.now() - started) / 1000,
        metricSets.get(network, method, target, version, errorType),
        parent,
      );
    };
    return context.with(trace.setSpan(parent, span), next).then(
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
  return placed("tracing", middleware, ["incoming"]);
}
