export type { DispatchHandler } from "./dispatch.js";
export type { AroundHandler, ExtensionHost, ExtensionMethod, ServerExtension } from "./extension.js";
export {
  type ServerMiddleware,
  ServerMiddlewareContext,
  type ServerParamsOf,
  type ServerRequestTypes,
  type ServerResultOf,
} from "./middleware.js";
export type { RateLimitOptions, RateLimitRule } from "./rate-limit.js";
