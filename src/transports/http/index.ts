export type { ReconnectOptions } from "./client/stream.js";
export { type StreamableHttpClientOptions, StreamableHttpClientTransport } from "./client/transport.js";
export {
  isSessionExpired,
  SESSION_EXPIRED_CODE,
  type SessionExpiredData,
} from "./shared/client-errors.js";
export type { HeadersOption } from "./shared/request.js";
export { formatSseEvent, type SseEvent, SseParser } from "./shared/sse.js";
