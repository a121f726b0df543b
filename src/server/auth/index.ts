export type { AuthInfo } from "../../protocol/transport.js";
export type { DpopOptions } from "./dpop.js";
export { AuthError, type AuthErrorCode, AuthUnavailableError } from "./errors.js";
export type { IntrospectionOptions } from "./introspection.js";
export type { JwtOptions } from "./jwt.js";
export { MetadataRoutes, type ProtectedResourceMetadata } from "./metadata.js";
export { type DpopReplayCache, MemoryReplayCache } from "./replay.js";
export { type ProtectedResourceOptions, type ProtectedScopes, ResourceServer } from "./resource-server.js";
