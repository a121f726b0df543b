import type { Icon, Meta } from "./base.js";
import type { ContentBlock } from "./content.js";

/** A JSON Schema object, as tools declare their input and output. */
export type JsonSchema = Record<string, unknown>;

/** Hints about a tool's behaviour; never to be trusted from an untrusted server. */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** A tool as `tools/list` describes it. */
export interface Tool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonSchema & { type: "object" };
  /** An object schema before 2026-07-28; any JSON Schema from then on. */
  outputSchema?: JsonSchema;
  annotations?: ToolAnnotations;
  icons?: Icon[];
  execution?: { taskSupport?: "forbidden" | "optional" | "required" };
  _meta?: Meta;
}

/** Result of `tools/list`. */
export interface ListToolsResult {
  tools: Tool[];
  nextCursor?: string;
  _meta?: Meta;
}

/** Parameters of `tools/call`. */
export interface CallToolRequestParams {
  name: string;
  arguments?: Record<string, unknown>;
  _meta?: Meta;
}

/** Result of `tools/call`. `isError: true` is a tool failure the model should see, not a protocol error. */
export interface CallToolResult {
  content: ContentBlock[];
  /** An object before 2026-07-28; any JSON value from then on. */
  structuredContent?: unknown;
  isError?: boolean;
  _meta?: Meta;
  [key: string]: unknown;
}
