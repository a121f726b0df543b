import type { Tool as AiSdkTool, JSONSchema7 } from "ai";
import { type LlmProvider, schemaForLlm } from "../client/tools/llm-schema.js";
import type { AgentTool, ToolOutput } from "../client/tools/tool.js";
import type { AudioContent, ImageContent } from "../protocol/types/content.js";
import { importPeer } from "../util/optional-peer.js";

// `ai` is an optional peer: without it, importing mcpkit/ai-sdk says which package to install.
const { dynamicTool, jsonSchema } = await importPeer("ai", "mcpkit/ai-sdk", () => import("ai"));

export interface AiSdkToolsOptions {
  /**
   * Whose rules the schemas are adapted to before the model sees them (`$ref` inlined, keywords a
   * provider rejects dropped); default `"generic"`, which suits every provider. Use `"gemini"` with
   * Google's models.
   */
  provider?: LlmProvider;
  /** Per-call timeout in ms for every tool, overriding each tool's default. */
  timeout?: number;
}

/** The part of the AI SDK's tool result output this module produces. */
export type ModelOutput =
  | { type: "text"; value: string }
  | { type: "error-text"; value: string }
  | {
      type: "content";
      value: ({ type: "text"; text: string } | { type: "media"; data: string; mediaType: string })[];
    };

/** A tool's output as the model reads it: its text, an error, or text with images and audio. */
export function toModelOutput(output: ToolOutput): ModelOutput {
  if (output.isError) return { type: "error-text", value: output.text };
  const media = output.content.filter(
    (block): block is ImageContent | AudioContent => block.type === "image" || block.type === "audio",
  );
  if (media.length === 0) return { type: "text", value: output.text };
  return {
    type: "content",
    value: [
      ...(output.text === "" ? [] : [{ type: "text" as const, text: output.text }]),
      ...media.map((block) => ({ type: "media" as const, data: block.data, mediaType: block.mimeType })),
    ],
  };
}

/**
 * mcpkit {@link AgentTool}s (MCP tools from `client.asTools()` or `MultiServerClient.tools()`, local
 * ones) as a tool set for the Vercel AI SDK's `generateText` / `streamText` / `Agent`, keyed by
 * tool name. Each is a `dynamicTool` (the AI SDK's form for tools known only at run time, as MCP
 * tools are) with the tool's JSON Schema as `inputSchema`.
 *
 * `execute` returns the whole {@link ToolOutput} (text, content blocks, `structuredContent`); the
 * model reads its text — or, when the tool reported `isError`, an `error-text` result, so the model
 * sees the failure and the loop goes on. A tool that throws (a transport or protocol failure)
 * becomes the AI SDK's `tool-error`, which the model also reads. The call's `abortSignal` reaches
 * the MCP call, which the server then cancels.
 *
 * `ai` (5 or newer) is an optional peer dependency: install it to use this module.
 */
export function toAiSdkTools(tools: AgentTool[], options: AiSdkToolsOptions = {}): Record<string, AiSdkTool> {
  const set: Record<string, AiSdkTool> = {};
  for (const tool of tools) {
    if (Object.hasOwn(set, tool.name)) throw new Error(`Two tools are named "${tool.name}"`);
    set[tool.name] = toAiSdkTool(tool, options);
  }
  return set;
}

/** One {@link AgentTool} for the AI SDK; see {@link toAiSdkTools}. */
export function toAiSdkTool(tool: AgentTool, options: AiSdkToolsOptions = {}): AiSdkTool {
  const schema = schemaForLlm(tool.inputSchema, options.provider ?? "generic") as JSONSchema7;
  return dynamicTool({
    description: tool.description,
    inputSchema: jsonSchema(schema),
    execute: (input, { abortSignal }) =>
      tool.invoke((input ?? {}) as Record<string, unknown>, {
        ...(abortSignal ? { signal: abortSignal } : {}),
        ...(options.timeout !== undefined ? { timeout: options.timeout } : {}),
      }),
    // AI SDK 6 passes { toolCallId, input, output }; AI SDK 5 passed the output alone.
    toModelOutput: (arg: { toolCallId: string; output: unknown }) => {
      const v6 = typeof arg === "object" && arg !== null && "toolCallId" in arg && "output" in arg;
      return toModelOutput((v6 ? arg.output : arg) as ToolOutput);
    },
  });
}
