/**
 * OpenTelemetry for MCP: client and server spans and duration histograms following the semantic
 * conventions for MCP, W3C trace context carried in `params._meta`, and an agent tracer. Uses
 * only `@opentelemetry/api` (an optional peer dependency); bring your own SDK and exporters.
 *
 * @example
 * import { otelClient, otelServer } from "mcpkit/otel";
 * server.use(otelServer());
 * client.use(otelClient());
 *
 * @module
 */
export { type AgentTracerOptions, agentTracer } from "./agent.js";
export { otelClient } from "./client.js";
export { instrument } from "./instrument.js";
export type { OtelOptions } from "./options.js";
export { type MetaPropagator, metaPropagator } from "./propagation.js";
export { otelServer } from "./server.js";
