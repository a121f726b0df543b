export { DEFAULT_ENDPOINT_TIMEOUT, type SseClientOptions, SseClientTransport } from "./client.js";
export { LegacySseHandler, type LegacySseOptions } from "./server.js";
