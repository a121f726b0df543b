export type { HeadersOption } from "../shared/request.js";
export type { StreamableHttpClientOptions } from "./options.js";
export type { ReconnectOptions } from "./stream.js";
export { StreamableHttpClientTransport } from "./transport.js";
