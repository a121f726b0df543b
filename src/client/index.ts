export type { RequestOptions } from "../protocol/engine/peer.js";
export {
  isSessionExpired,
  SESSION_EXPIRED_CODE,
  type SessionExpiredData,
} from "../transports/http/shared/client-errors.js";
export type { HttpTransportKind, HttpTransportName } from "../transports/kinds.js";
export type { Channel, FeatureAnswerer, ListKind } from "./channels/channel.js";
export { type CallToolOptions, McpClient } from "./client.js";
export type { ClientEvents } from "./events.js";
export type { ClientExtension, ExtensionRequestHandler } from "./extension.js";
export type {
  ClientFeatures,
  ElicitationHandler,
  RootsHandler,
  SamplingHandler,
  ServerRequestContext,
} from "./features.js";
export { argumentsFromStrict, type LlmProvider, type LlmSchemaOptions, schemaForLlm } from "./llm-schema.js";
export {
  type ClientConnectionInfo,
  type ClientMiddleware,
  ClientMiddlewareContext,
  type ClientParamsOf,
  type ClientRequestTypes,
  type ClientResultOf,
} from "./middleware.js";
export type { FieldRule, FieldTable } from "./multi/config-check.js";
export type { EntrySchema } from "./multi/config-schema.js";
export * from "./multi/index.js";
export type {
  ClientOptions,
  CommonClientOptions,
  HttpClientOptions,
  StdioClientOptions,
  TransportClientOptions,
} from "./options.js";
export type { TaskChannel } from "./task.js";
export { type TaskInfo, ToolTask } from "./task.js";
export type { ClientTaskOptions } from "./task-receiver.js";
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
  toToolOutput,
} from "./tool-adapter.js";
export { ToolResult } from "./tool-result.js";
