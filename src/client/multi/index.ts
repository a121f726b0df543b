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
export { MultiServerClient } from "./multi-client.js";
export {
  assignToolNames,
  type CollisionPolicy,
  MAX_TOOL_NAME_LENGTH,
  SERVER_SEPARATOR,
  sanitizeToolName,
  ToolNameConflictError,
  type ToolToName,
} from "./naming.js";
export {
  MultiServerConnectError,
  type MultiServerEvents,
  type MultiServerFileOptions,
  type MultiServerListeners,
  type MultiServerOptions,
  type PerToolOptions,
  type ServerFailure,
  type ServerHealth,
  type ServerState,
  type SkippedServer,
} from "./options.js";
export { DEFAULT_RECONNECT, type ReconnectPolicy } from "./reconnect.js";
export type { MultiServerTool, ToolFilter, ToolSelection } from "./router.js";
