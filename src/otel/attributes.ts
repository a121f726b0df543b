import type { Attributes, Span } from "@opentelemetry/api";
import { McpError } from "../jsonrpc/errors.js";
import type { Transport } from "../protocol/transport.js";
import { api } from "./api.js";

const { SpanStatusCode } = api;

/** Attribute names of the OpenTelemetry semantic conventions for MCP. */
export const ATTR = {
  method: "mcp.method.name",
  sessionId: "mcp.session.id",
  protocolVersion: "mcp.protocol.version",
  resourceUri: "mcp.resource.uri",
  toolName: "gen_ai.tool.name",
  promptName: "gen_ai.prompt.name",
  operation: "gen_ai.operation.name",
  requestId: "jsonrpc.request.id",
  statusCode: "rpc.response.status_code",
  errorType: "error.type",
  networkTransport: "network.transport",
  protocolName: "network.protocol.name",
  serverAddress: "server.address",
  serverPort: "server.port",
} as const;

/** The bucket boundaries (seconds) the conventions give both duration histograms. */
export const DURATION_BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

/** The tool or prompt a request is about: the span name's target. */
export function targetOf(method: string, params: Record<string, unknown> | undefined): string | undefined {
  if (method === "tools/call" || method === "prompts/get") {
    const name = params?.name;
    return typeof name === "string" ? name : undefined;
  }
  return undefined;
}

/** `{mcp.method.name} {target}`, or the method alone. */
export function spanName(method: string, target: string | undefined): string {
  return target === undefined ? method : `${method} ${target}`;
}

/** The attributes a request's params give (also those its duration is recorded with). */
export function requestAttributes(method: string, target: string | undefined): Attributes {
  const attributes: Attributes = { [ATTR.method]: method };
  if (method === "tools/call") {
    if (target !== undefined) attributes[ATTR.toolName] = target;
    attributes[ATTR.operation] = "execute_tool";
  } else if (method === "prompts/get" && target !== undefined) {
    attributes[ATTR.promptName] = target;
  }
  return attributes;
}

/** The resource URI, kept off the metric attributes (high cardinality). */
export function resourceUri(method: string, params: Record<string, unknown> | undefined): string | undefined {
  if (!method.startsWith("resources/")) return undefined;
  const uri = params?.uri;
  return typeof uri === "string" ? uri : undefined;
}

const networks = new WeakMap<Transport, Attributes>();

/**
 * `network.transport` (and `network.protocol.name`, `server.address`/`server.port` towards an HTTP
 * server) of a transport, from what it declares (`Transport.network`). Computed once per transport.
 */
export function networkAttributes(transport: Transport): Attributes {
  let known = networks.get(transport);
  if (known) return known;
  known = {};
  const network = transport.network;
  if (network) {
    known[ATTR.networkTransport] = network.transport;
    if (network.transport === "tcp") known[ATTR.protocolName] = "http";
    const url = network.url;
    if (url) {
      known[ATTR.serverAddress] = url.hostname;
      known[ATTR.serverPort] = Number(url.port || (url.protocol === "https:" ? 443 : 80));
    }
  }
  networks.set(transport, known);
  return known;
}

/** Marks a failed request: a JSON-RPC error's code, or the error's class. Returns `error.type`. */
export function recordError(span: Span, error: unknown): string {
  let type: string;
  if (error instanceof McpError) {
    type = String(error.code);
    span.setAttribute(ATTR.statusCode, type);
  } else {
    type = error instanceof Error ? error.name : "_OTHER";
  }
  span.setAttribute(ATTR.errorType, type);
  if (error instanceof Error) span.recordException(error);
  span.setStatus({
    code: SpanStatusCode.ERROR,
    message: error instanceof Error ? error.message : String(error),
  });
  return type;
}

/** Marks a tool result with `isError: true`: the call succeeded, the tool failed. */
export function recordToolError(span: Span, result: unknown): string | undefined {
  if (!(result as { isError?: unknown } | undefined)?.isError) return undefined;
  span.setAttribute(ATTR.errorType, "tool_error");
  span.setStatus({ code: SpanStatusCode.ERROR, message: "tool_error" });
  return "tool_error";
}
