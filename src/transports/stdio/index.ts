export { StdioClientTransport, type StdioServerParameters } from "./client.js";
export { StdioServerTransport, type StdioServerTransportOptions } from "./server.js";
