import { text } from "../protocol/content.js";
import type { ContentBlock } from "../protocol/types/content.js";
import type { CallToolResult } from "../protocol/types/tools.js";

/** What a tool handler may return: text, content blocks, a full result, or (with an output schema) the structured value. */
export type ToolReturn =
  | string
  | ContentBlock[]
  | CallToolResult
  | Record<string, unknown>
  | number
  | boolean
  | undefined
  | null;

function isCallToolResult(value: object): value is CallToolResult {
  return Array.isArray((value as { content?: unknown }).content);
}

/** Turns whatever a handler returned into a `CallToolResult`. */
export function toCallToolResult(value: ToolReturn, structured: boolean): CallToolResult {
  if (typeof value === "string") return { content: [text(value)] };
  if (value === undefined || value === null) return { content: [] };
  if (typeof value !== "object") return { content: [text(String(value))] };
  if (Array.isArray(value)) return { content: value };
  if (isCallToolResult(value)) return value;
  // A plain object: the structured result, with its JSON as text for clients that read only text.
  return structured
    ? { content: [text(JSON.stringify(value))], structuredContent: value }
    : { content: [text(JSON.stringify(value))] };
}

/** A failed tool call the model should see: `isError: true` with the message as text. */
export function toolError(message: string): CallToolResult {
  return { content: [text(message)], isError: true };
}
