import { ErrorCode, McpError } from "../jsonrpc/errors.js";

/**
 * Extensions of MCP (SEP-1724): named by an id such as `io.modelcontextprotocol/tasks`, declared
 * by each side under `capabilities.extensions[id]` (an object of settings, `{}` for none).
 * What both roles need to read and refuse them lives here.
 */

/** The settings a side declared for extension `id`, or `undefined` when it did not declare it. */
export function extensionSettings(
  capabilities: { extensions?: unknown } | undefined,
  id: string,
): object | undefined {
  const extensions = capabilities?.extensions;
  if (typeof extensions !== "object" || extensions === null) return undefined;
  const settings = (extensions as Record<string, unknown>)[id];
  return typeof settings === "object" && settings !== null ? settings : undefined;
}

/** Whether a side declared extension `id`. */
export function declaresExtension(capabilities: { extensions?: unknown } | undefined, id: string): boolean {
  return extensionSettings(capabilities, id) !== undefined;
}

/**
 * -32021 for `what` (a method or a feature) of an extension the client did not declare; `data`
 * names it as `requiredCapabilities.extensions[id]`.
 */
export function missingExtension(id: string, what: string): McpError {
  return new McpError(
    ErrorCode.MissingRequiredClientCapability,
    `Missing required client capability: ${what} needs the extension ${id}`,
    { requiredCapabilities: { extensions: { [id]: {} } } },
  );
}
