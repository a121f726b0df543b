export type { CacheHint, Era, ProtocolEra, ResultStamp } from "./era.js";
export * from "./handshake.js";
export { legacy } from "./legacy.js";
export { batchedModernProblem, MODERN_ONLY_METHODS, modern, speaksModern } from "./modern.js";
export * from "./negotiate.js";
export * from "./request-meta.js";
