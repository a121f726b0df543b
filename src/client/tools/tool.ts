import type { Meta, Progress } from "../../protocol/types/base.js";
import type { ContentBlock } from "../../protocol/types/content.js";
import type { JsonSchema } from "../../protocol/types/tools.js";

/** How a tool is invoked: cancellation and progress flow through to the MCP call. */
export interface ToolInvokeOptions {
  signal?: AbortSignal;
  onProgress?: (progress: Progress) => void;
  /** Per-call timeout in ms, overriding the tool's default. */
  timeout?: number;
}

/** What a tool returns to an agent: the text a model reads, plus everything the tool sent. */
export interface ToolOutput {
  /** All text blocks joined by newlines; for a failed tool, the error the model should see. */
  text: string;
  /** The full content blocks. */
  content: ContentBlock[];
  /** The structured result: an object, or since 2026-07-28 any JSON value. */
  structuredContent?: unknown;
  /** The tool reported a failure (`isError`): data for the model, not an exception. */
  isError: boolean;
  /** The result's `_meta`, as the server sent it. */
  _meta?: Meta;
}

/**
 * A tool an agent can call (the seed's BaseTool): an MCP tool adapted by `client.asTools()` or
 * `MultiServerClient.tools()`, or a local function made with `localTool()`. Both mix freely.
 */
export interface AgentTool {
  /** The name the model sees; unique among the tools given to one agent. */
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the arguments (an object schema). */
  readonly inputSchema: JsonSchema;
  invoke(args: Record<string, unknown>, options?: ToolInvokeOptions): Promise<ToolOutput>;
}
