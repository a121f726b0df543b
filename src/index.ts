export { McpClient, MultiServerClient } from "./client/index.js";
export * from "./jsonrpc/index.js";
export * from "./protocol/index.js";
export type { SessionHost, ToolResultOf } from "./server/index.js";
export { McpServer } from "./server/index.js";
export { VERSION } from "./version.js";
