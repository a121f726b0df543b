import type { JSONRPCMessage } from "../../../jsonrpc/messages.js";
import { encodeHeaderValue, MCP_NAME_SOURCE } from "../shared/param-headers.js";

/** Computes the `Mcp-Param-*` headers that mirror a request's arguments. */
export type ParamHeadersOf = (message: JSONRPCMessage) => Record<string, string>;

/**
 * Adds the headers a POST of the stateless revision (2026-07-28) carries beside its body:
 * `Mcp-Method`, `Mcp-Name` (the tool, prompt or resource it names) and the `Mcp-Param-*` ones.
 */
export function addModernHeaders(
  headers: Record<string, string>,
  message: JSONRPCMessage,
  paramHeaders: ParamHeadersOf | undefined,
): void {
  if (!("method" in message)) return;
  headers["mcp-method"] = message.method;
  const params = message.params ?? {};
  const source = MCP_NAME_SOURCE[message.method];
  const name = source === undefined ? undefined : params[source];
  if (typeof name === "string") headers["mcp-name"] = encodeHeaderValue(name);
  const mirrored = paramHeaders?.(message);
  if (mirrored) for (const header in mirrored) headers[header] = mirrored[header]!;
}
