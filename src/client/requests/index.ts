export {
  type ClientConnectionInfo,
  type ClientMiddleware,
  ClientMiddlewareContext,
  type ClientParamsOf,
  type ClientRequestTypes,
  type ClientResultOf,
  type Paged,
} from "./middleware.js";
