export {
  type ClientConnectionInfo,
  type ClientMiddleware,
  ClientMiddlewareContext,
  type ClientParamsOf,
  type ClientRequestTypes,
  type ClientResultOf,
} from "./middleware.js";
