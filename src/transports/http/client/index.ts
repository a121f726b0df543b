export type { HeadersOption } from "../shared/request.js";
export type { ReconnectOptions } from "./stream.js";
export { type StreamableHttpClientOptions, StreamableHttpClientTransport } from "./transport.js";
