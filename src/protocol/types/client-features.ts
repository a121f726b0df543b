import type { Meta } from "./base.js";
import type { AudioContent, ImageContent, TextContent } from "./content.js";
import type { JsonSchema } from "./tools.js";

/** Severity of a log message, as syslog (RFC 5424) orders them. */
export type LoggingLevel =
  | "debug"
  | "info"
  | "notice"
  | "warning"
  | "error"
  | "critical"
  | "alert"
  | "emergency";

/** A `notifications/message` from the server. */
export interface LoggingMessageNotificationParams {
  level: LoggingLevel;
  logger?: string;
  data: unknown;
  _meta?: Meta;
}

/** A directory or file the client lets the server work in. */
export interface Root {
  uri: string;
  name?: string;
  _meta?: Meta;
}

export interface ListRootsResult {
  roots: Root[];
  _meta?: Meta;
}

/** Content of a sampling message (tool use and results need 2025-11-25). */
export type SamplingContent =
  | TextContent
  | ImageContent
  | AudioContent
  | { type: "tool_use"; id: string; name: string; input: Record<string, unknown>; _meta?: Meta }
  | {
      type: "tool_result";
      toolUseId: string;
      content: unknown[];
      structuredContent?: object;
      isError?: boolean;
      _meta?: Meta;
    };

export interface SamplingMessage {
  role: "user" | "assistant";
  content: SamplingContent | SamplingContent[];
  _meta?: Meta;
}

export interface ModelPreferences {
  hints?: { name?: string }[];
  costPriority?: number;
  speedPriority?: number;
  intelligencePriority?: number;
}

/** Parameters of `sampling/createMessage`. */
export interface CreateMessageRequestParams {
  messages: SamplingMessage[];
  maxTokens: number;
  systemPrompt?: string;
  modelPreferences?: ModelPreferences;
  includeContext?: "none" | "thisServer" | "allServers";
  temperature?: number;
  stopSequences?: string[];
  metadata?: object;
  tools?: { name: string; description?: string; inputSchema: JsonSchema }[];
  toolChoice?: { mode?: "auto" | "required" | "none" };
  _meta?: Meta;
}

export interface CreateMessageResult {
  role: "user" | "assistant";
  content: SamplingContent | SamplingContent[];
  model: string;
  stopReason?: string;
  _meta?: Meta;
}

/** Parameters of `elicitation/create`: a form (the default) or, from 2025-11-25, a URL to open. */
export type ElicitRequestParams =
  | { mode?: "form"; message: string; requestedSchema: JsonSchema; _meta?: Meta }
  | { mode: "url"; message: string; url: string; elicitationId: string; _meta?: Meta };

export interface ElicitResult {
  action: "accept" | "decline" | "cancel";
  content?: Record<string, string | number | boolean | string[]>;
  _meta?: Meta;
}
