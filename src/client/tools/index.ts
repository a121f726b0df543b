export { type LlmProvider, type LlmSchemaOptions, schemaForLlm } from "./llm-schema.js";
export { argumentsFromStrict } from "./llm-schema-strict.js";
export type { AgentTool, ToolInvokeOptions, ToolOutput } from "./tool.js";
export {
  type AsToolsOptions,
  asTools,
  DEFAULT_MAX_TOTAL_TIMEOUT,
  type LocalToolContext,
  type LocalToolDefinition,
  type LocalToolReturn,
  localTool,
  type McpTool,
  type McpToolOptions,
  mcpTool,
  type ToolCaller,
  ToolError,
  type ToolLister,
  toToolOutput,
} from "./tool-adapter.js";
export { ToolResult } from "./tool-result.js";
