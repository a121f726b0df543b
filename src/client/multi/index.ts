export {
  expandVariables,
  type HttpServerConfig,
  loadConfigFile,
  type McpServersConfig,
  parseConfig,
  type ServerAuthConfig,
  type ServerConfig,
  type StdioServerConfig,
} from "./config.js";
export { ConfigError, type ConfigLocation, type ConfigWarning } from "./config-error.js";
export type { ServerHealth, ServerState } from "./connection.js";
export {
  MultiServerClient,
  MultiServerConnectError,
  type MultiServerEvents,
  type MultiServerFileOptions,
  type MultiServerListeners,
  type MultiServerOptions,
  type ServerFailure,
  type SkippedServer,
} from "./multi-client.js";
export {
  assignToolNames,
  type CollisionPolicy,
  MAX_TOOL_NAME_LENGTH,
  SERVER_SEPARATOR,
  sanitizeToolName,
  ToolNameConflictError,
  type ToolToName,
} from "./naming.js";
export { DEFAULT_RECONNECT, type ReconnectPolicy } from "./reconnect.js";
export type { MultiServerTool, PerToolOptions, ToolFilter, ToolSelection } from "./router.js";
