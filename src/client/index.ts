export { ErrorCode, McpError } from "../jsonrpc/errors.js";
export type { RequestOptions } from "../protocol/peer.js";
export { isSessionExpired } from "../transports/http/client-errors.js";
export { McpClient } from "./client.js";
export type { ClientEvents } from "./events.js";
export type {
  ClientFeatures,
  ElicitationHandler,
  SamplingHandler,
  ServerRequestContext,
} from "./features.js";
export type {
  ClientOptions,
  CommonClientOptions,
  HttpClientOptions,
  StdioClientOptions,
  TransportClientOptions,
} from "./options.js";
export { ToolResult } from "./tool-result.js";
