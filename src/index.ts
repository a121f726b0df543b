export * from "./jsonrpc/index.js";
export * from "./protocol/index.js";
