import { joinText } from "../../protocol/features/content.js";
import type { Meta } from "../../protocol/types/base.js";
import type { ContentBlock } from "../../protocol/types/content.js";
import type { CallToolResult } from "../../protocol/types/tools.js";

/**
 * The result of `tools/call`, as data: `isError` is a tool failure to show the model, not an
 * exception. Serializes to exactly the result the server sent.
 */
export class ToolResult implements CallToolResult {
  [key: string]: unknown;
  content: ContentBlock[];
  /** The structured result: an object, or since 2026-07-28 any JSON value. */
  structuredContent?: unknown;
  isError?: boolean;
  _meta?: Meta;

  constructor(result: CallToolResult) {
    Object.assign(this, result);
    this.content = Array.isArray(result.content) ? result.content : [];
  }

  /** All text blocks joined by newlines. */
  text(): string {
    return joinText(this.content);
  }
}
