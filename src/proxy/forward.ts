/** Forwarding to an upstream: completions, schemas passed on unchecked, and the small helpers the mirror shares. */
import type { McpClient } from "../client/client.js";
import { ErrorCode, McpError } from "../jsonrpc/errors.js";
import type { StandardSchemaV1 } from "../protocol/schema/standard.js";
import type { CompleteReference } from "../protocol/types/completion.js";
import type { CallToolResult, JsonSchema } from "../protocol/types/tools.js";
import type { Completer } from "../server/registries/completion.js";

/** A JSON Schema as the `McpServer` takes it, listed as it is and never checked: the upstream checks. */
export function verbatim(schema: JsonSchema): StandardSchemaV1<Record<string, unknown>> {
  return {
    "~standard": {
      version: 1,
      vendor: "mcpkit-proxy",
      validate: (value) => ({ value: value as Record<string, unknown> }),
      jsonSchema: { input: () => schema, output: () => schema },
    },
  };
}

/** What a tool returned, as the result to send on: without the upstream's reserved `_meta`. */
export function resultOf(output: CallToolResult): CallToolResult {
  const result: CallToolResult = { content: output.content };
  if (output.structuredContent !== undefined) result.structuredContent = output.structuredContent;
  if (output.isError) result.isError = true;
  const meta = ownMeta(output._meta);
  if (meta) result._meta = meta;
  return result;
}

/**
 * The upstream's own `_meta` keys: those the protocol reserves (`io.modelcontextprotocol/…`, such
 * as the upstream's `serverInfo`) describe that hop, not this one.
 */
function ownMeta(meta: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (meta === undefined) return undefined;
  // Most results carry only the reserved keys: those are looked at without copying anything.
  const keys = Object.keys(meta);
  for (let i = 0; i < keys.length; i++) {
    if (!keys[i]!.startsWith(RESERVED)) {
      return Object.fromEntries(Object.entries(meta).filter(([name]) => !name.startsWith(RESERVED)));
    }
  }
  return undefined;
}

const RESERVED = "io.modelcontextprotocol/";

/** An error's message, for a warning. */
export const describeError = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Lists with `list`, or nothing when the server answers that it has no such method: a stateless
 * server stops declaring a capability once the last item of its kind is removed.
 */
export async function listOrNone<T>(list: () => Promise<T[]>): Promise<T[]> {
  try {
    return await list();
  } catch (error) {
    if (error instanceof McpError && error.code === ErrorCode.MethodNotFound) return [];
    throw error;
  }
}

/** `value` without its `key` member. */
export function without<T extends object, K extends keyof T>(value: T, key: K): Omit<T, K> {
  const { [key]: _dropped, ...rest } = value;
  return rest;
}

/** Completes one prompt argument or template variable on the upstream `client()` returns. */
export function forwardCompletion(client: () => McpClient, ref: CompleteReference, name: string): Completer {
  return (value, { arguments: context }) =>
    client().complete(ref, { name, value }, Object.keys(context).length > 0 ? context : undefined);
}
