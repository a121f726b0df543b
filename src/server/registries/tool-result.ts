import { text } from "../../protocol/features/content.js";
import type { ContentBlock } from "../../protocol/types/content.js";
import type { CallToolResult } from "../../protocol/types/tools.js";

/**
 * What a tool handler may return: text, content blocks, a full result, or (with an output schema)
 * the structured value, which since 2026-07-28 may be any JSON value, arrays included.
 */
export type ToolReturn =
  | string
  | ContentBlock[]
  | CallToolResult
  | Record<string, unknown>
  | unknown[]
  | number
  | boolean
  | undefined
  | null;

function isCallToolResult(value: object): value is CallToolResult {
  return Array.isArray((value as { content?: unknown }).content);
}

/**
 * Turns whatever a handler returned into a `CallToolResult`. `structured` is what the tool's output
 * schema describes: `object` (a plain object returned is the structured result), `any` (since
 * 2026-07-28: any value returned that is not a whole result is), or `none`.
 */
export function toCallToolResult(value: ToolReturn, structured: "none" | "object" | "any"): CallToolResult {
  if (structured === "any" && !(typeof value === "object" && value !== null && isCallToolResult(value))) {
    return value === undefined
      ? { content: [] }
      : { content: [text(JSON.stringify(value))], structuredContent: value };
  }
  if (typeof value === "string") return { content: [text(value)] };
  if (value === undefined || value === null) return { content: [] };
  if (typeof value !== "object") return { content: [text(String(value))] };
  if (Array.isArray(value)) return { content: value as ContentBlock[] };
  if (isCallToolResult(value)) return value;
  // A plain object: the structured result, with its JSON as text for clients that read only text.
  return structured === "object"
    ? { content: [text(JSON.stringify(value))], structuredContent: value }
    : { content: [text(JSON.stringify(value))] };
}

/** A failed tool call the model should see: `isError: true` with the message as text. */
export function toolError(message: string): CallToolResult {
  return { content: [text(message)], isError: true };
}
