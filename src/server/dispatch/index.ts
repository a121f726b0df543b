export type { DispatchHandler } from "./dispatch.js";
export type { ExtensionHost, ExtensionMethod, ServerExtension } from "./extension.js";
export {
  type ServerMiddleware,
  ServerMiddlewareContext,
  type ServerParamsOf,
  type ServerRequestTypes,
  type ServerResultOf,
} from "./middleware.js";
export {
  MIDDLEWARE_ORDER,
  type MiddlewareDeclaration,
  type MiddlewareDirection,
  type MiddlewarePlace,
  placed,
} from "./order.js";
export type { RateLimitOptions, RateLimitRule } from "./rate-limit.js";
