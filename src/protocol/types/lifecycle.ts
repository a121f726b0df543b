import type { Implementation, Meta } from "./base.js";
import type { LoggingLevel } from "./client-features.js";

/** What a client can do. Unknown members are kept as sent. */
export interface ClientCapabilities {
  experimental?: Record<string, object>;
  roots?: { listChanged?: boolean };
  sampling?: { context?: object; tools?: object };
  elicitation?: { form?: object; url?: object };
  tasks?: object;
  /** Extensions the client speaks, by id, with their settings (`{}` for none). */
  extensions?: Record<string, object>;
  [key: string]: unknown;
}

/** What a server can do. Unknown members are kept as sent. */
export interface ServerCapabilities {
  experimental?: Record<string, object>;
  logging?: object;
  completions?: object;
  prompts?: { listChanged?: boolean };
  resources?: { subscribe?: boolean; listChanged?: boolean };
  tools?: { listChanged?: boolean };
  tasks?: object;
  /** Extensions the server speaks, by id, with their settings (`{}` for none). */
  extensions?: Record<string, object>;
  [key: string]: unknown;
}

/** Parameters of `initialize`. */
export interface InitializeRequestParams {
  protocolVersion: string;
  capabilities: ClientCapabilities;
  clientInfo: Implementation;
  _meta?: Meta;
}

/** Result of `initialize`. */
export interface InitializeResult {
  protocolVersion: string;
  capabilities: ServerCapabilities;
  serverInfo: Implementation;
  instructions?: string;
  _meta?: Meta;
}

/** What a stateless (2026-07-28) request says about its sender in `_meta`. */
export interface RequestMeta {
  protocolVersion: string;
  clientCapabilities: ClientCapabilities;
  clientInfo?: Implementation;
  logLevel?: LoggingLevel;
}
