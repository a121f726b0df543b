export type { CacheHint } from "./era.js";
export * from "./handshake.js";
export * from "./negotiate.js";
export * from "./request-meta.js";
