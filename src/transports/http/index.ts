export { type StreamableHttpClientOptions, StreamableHttpClientTransport } from "./client.js";
export {
  isSessionExpired,
  SESSION_EXPIRED_CODE,
  type SessionExpiredData,
} from "./client-errors.js";
export type { ReconnectOptions } from "./client-stream.js";
export type { HeadersOption } from "./request.js";
export { formatSseEvent, type SseEvent, SseParser } from "./sse.js";
