export type { HttpAuthHooks, HttpRefusal } from "../shared/authenticate.js";
export {
  BodyTooLargeError,
  type ConnectSession,
  type HttpExchange,
  type MountedRoutes,
  type SseSink,
} from "../shared/exchange.js";
export { isLoopback, LOCALHOST_NAMES, type OriginPolicy } from "../shared/origin.js";
export type { ParamHeader } from "../shared/param-headers.js";
export type { StreamBuffer, StreamBufferLimit, StreamOverflow } from "../shared/stream-buffer.js";
export { NodeExchange } from "./adapters/node.js";
export { WebExchange } from "./adapters/web.js";
export { StreamableHttpHandler, type StreamableHttpOptions } from "./handler.js";
export { type HttpServerHandle, type ListenHttpOptions, listenHttp } from "./listen.js";
export type { ParamHeaders } from "./modern-headers.js";
export { HttpSessionTransport, type ResponseMode } from "./session-transport.js";
export type { StreamOptions } from "./stream.js";
