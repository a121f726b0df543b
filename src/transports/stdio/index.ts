export { DEFAULT_INHERITED_ENV } from "./child-env.js";
export { DEFAULT_MAX_NOISE_LINES, StdioClientTransport, type StdioServerParameters } from "./client.js";
export { StdioServerTransport, type StdioServerTransportOptions } from "./server.js";
