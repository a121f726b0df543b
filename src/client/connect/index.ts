export type {
  ClientOptions,
  CommonClientOptions,
  HttpClientOptions,
  StdioClientOptions,
  TransportClientOptions,
} from "./options.js";
