export { LegacySseHandler, type LegacySseOptions } from "../../sse/server.js";
export { type EventStore, MemoryEventStore } from "./event-store.js";
export { BodyTooLargeError, type HttpExchange, type SseSink } from "./exchange.js";
export { type ConnectSession, StreamableHttpHandler, type StreamableHttpOptions } from "./handler.js";
export { type HttpServerHandle, listenHttp, type ServeHttpOptions } from "./listen.js";
export { NodeExchange } from "./node.js";
export { isLoopback, LOCALHOST_NAMES, type OriginPolicy } from "./origin.js";
export { HttpSessionTransport, type ResponseMode } from "./session-transport.js";
export { WebExchange } from "./web.js";
