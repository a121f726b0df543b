export type { RequestOptions } from "../protocol/engine/peer.js";
export {
  isSessionExpired,
  SESSION_EXPIRED_CODE,
  type SessionExpiredData,
} from "../transports/http/shared/client-errors.js";
export type { HttpTransportKind, HttpTransportName } from "../transports/kinds.js";
export type { Channel, FeatureAnswerer, ListKind } from "./channels/index.js";
export { McpClient } from "./client.js";
export type {
  ClientOptions,
  CommonClientOptions,
  HttpClientOptions,
  StdioClientOptions,
  TransportClientOptions,
} from "./connect/index.js";
export type {
  ClientEvents,
  ClientExtension,
  ClientFeatures,
  ElicitationHandler,
  ExtensionRequestHandler,
  RootsHandler,
  SamplingHandler,
  ServerRequestContext,
} from "./features/index.js";
export type { FieldRule, FieldTable } from "./multi/config-check.js";
export type { EntrySchema } from "./multi/config-schema.js";
export * from "./multi/index.js";
export {
  type ClientConnectionInfo,
  type ClientMiddleware,
  ClientMiddlewareContext,
  type ClientParamsOf,
  type ClientRequestTypes,
  type ClientResultOf,
} from "./requests/index.js";
export type { CallToolOptions, ClientTaskOptions, TaskChannel } from "./tasks/index.js";
export { type TaskInfo, ToolTask } from "./tasks/index.js";
export type { AgentTool, ToolInvokeOptions, ToolOutput } from "./tools/index.js";
export {
  type AsToolsOptions,
  argumentsFromStrict,
  asTools,
  DEFAULT_MAX_TOTAL_TIMEOUT,
  type LlmProvider,
  type LlmSchemaOptions,
  type LocalToolContext,
  type LocalToolDefinition,
  type LocalToolReturn,
  localTool,
  type McpTool,
  type McpToolOptions,
  mcpTool,
  schemaForLlm,
  type ToolCaller,
  ToolError,
  type ToolLister,
  ToolResult,
  toToolOutput,
} from "./tools/index.js";
