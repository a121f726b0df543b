export * from "./jsonrpc/index.js";
export * from "./protocol/index.js";
export { VERSION } from "./version.js";
