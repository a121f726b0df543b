/**
 * `mcpkit`: what most programs write with — the two roles, the multi-server client, the content
 * helpers a tool returns, and the one protocol error. Each name has its home in a subpath entry
 * (`mcpkit/server`, `mcpkit/client`, `mcpkit/jsonrpc`), which also holds the options and types
 * around it; the engine (`Peer`, handshakes, schemas) stays in `mcpkit/protocol`.
 */

export {
  type ClientOptions,
  McpClient,
  MultiServerClient,
  type MultiServerOptions,
  ToolError,
  ToolResult,
} from "./client/index.js";
export { ErrorCode, McpError } from "./jsonrpc/index.js";
export {
  audio,
  embeddedResource,
  image,
  McpServer,
  resourceLink,
  type ServerMiddleware,
  type ServerOptions,
  type SessionHost,
  type ToolResultOf,
  text,
} from "./server/index.js";
export type { MethodSelector } from "./util/middleware.js";
export { VERSION } from "./version.js";
