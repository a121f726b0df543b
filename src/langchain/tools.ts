import type { DynamicStructuredTool, ToolRunnableConfig } from "@langchain/core/tools";
import { type LlmProvider, schemaForLlm } from "../client/tools/llm-schema.js";
import type { AgentTool, ToolOutput } from "../client/tools/tool.js";
import type { JsonSchema } from "../protocol/types/tools.js";
import { importPeer } from "../util/optional-peer.js";

// `@langchain/core` is an optional peer: without it, importing mcpkit/langchain says which package to install.
const feature = "mcpkit/langchain";
const [{ ToolMessage }, tools] = await Promise.all([
  importPeer("@langchain/core", feature, () => import("@langchain/core/messages")),
  importPeer("@langchain/core", feature, () => import("@langchain/core/tools")),
]);

export interface LangChainToolsOptions {
  /**
   * Whose rules the schemas are adapted to before LangChain and the model see them (`$ref`
   * inlined, keywords a provider rejects dropped); default `"generic"`, which suits every provider.
   * Use `"gemini"` with Google's models.
   */
  provider?: LlmProvider;
  /** Per-call timeout in ms for every tool, overriding each tool's default. */
  timeout?: number;
}

/** What a LangChain tool made from an mcpkit {@link AgentTool} keeps as the `ToolMessage`'s artifact. */
export type LangChainToolArtifact = ToolOutput;

/**
 * mcpkit {@link AgentTool}s (MCP tools from `client.asTools()` or `MultiServerClient.tools()`, local
 * ones) as LangChain `StructuredTool`s, for LangGraph's `createReactAgent`, LangChain's
 * `createAgent`, `model.bindTools(...)` or a `ToolNode`.
 *
 * Called with a tool call (as agents do), each tool returns a `ToolMessage`: the tool's text as
 * `content`, the whole {@link ToolOutput} (content blocks, `structuredContent`) as `artifact`, and
 * `status: "error"` when the tool reported `isError` — so the model reads the error and the agent
 * goes on, no exception. Called with plain arguments, it returns the text. A tool that throws (a
 * transport or protocol failure) throws; LangChain's `ToolNode` turns that into an error message
 * too, unless told otherwise (`handleToolErrors`). The run's abort signal (`config.signal`)
 * reaches the MCP call, which the server then cancels.
 *
 * `@langchain/core` is an optional peer dependency: install it to use this module.
 */
export function toLangChainTools(
  tools: AgentTool[],
  options: LangChainToolsOptions = {},
): DynamicStructuredTool[] {
  return tools.map((tool) => toLangChainTool(tool, options));
}

/** One {@link AgentTool} as a LangChain `StructuredTool`; see {@link toLangChainTools}. */
export function toLangChainTool(tool: AgentTool, options: LangChainToolsOptions = {}): DynamicStructuredTool {
  const schema: JsonSchema = schemaForLlm(tool.inputSchema, options.provider ?? "generic");
  return new tools.DynamicStructuredTool({
    name: tool.name,
    description: tool.description,
    schema,
    func: async (input: Record<string, unknown>, _runManager, config?: ToolRunnableConfig) => {
      const output = await tool.invoke(input ?? {}, {
        ...(config?.signal ? { signal: config.signal } : {}),
        ...(options.timeout !== undefined ? { timeout: options.timeout } : {}),
      });
      const id = config?.toolCall?.id;
      if (id === undefined) return output.text;
      return new ToolMessage({
        content: output.text,
        tool_call_id: id,
        name: tool.name,
        artifact: output,
        status: output.isError ? "error" : "success",
      });
    },
  });
}
