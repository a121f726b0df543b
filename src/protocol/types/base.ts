/** Shapes shared by every MCP message, named as in the spec's schema. */

/** Free-form metadata on requests, results and notifications. */
export type Meta = Record<string, unknown>;

/** A token the requester gives so the receiver can report progress. */
export type ProgressToken = string | number;

/** An opaque pagination cursor. */
export type Cursor = string;

/** The params of a paginated list request (`tools/list`, `resources/list`…). */
export interface PaginatedRequestParams {
  cursor?: Cursor;
}

/** An icon a client may show for a server, tool, resource or prompt (2025-11-25). */
export interface Icon {
  src: string;
  mimeType?: string;
  sizes?: string[];
  theme?: "light" | "dark";
}

/** Name, version and display data of a client or server. */
export interface Implementation {
  name: string;
  version: string;
  title?: string;
  description?: string;
  websiteUrl?: string;
  icons?: Icon[];
}

/** Who the data is meant for and how important it is. */
export interface Annotations {
  audience?: ("user" | "assistant")[];
  priority?: number;
  lastModified?: string;
}

/** Base of every result. */
export interface Result {
  _meta?: Meta;
  [key: string]: unknown;
}

/** Parameters of `notifications/progress`. */
export interface ProgressNotificationParams {
  progressToken: ProgressToken;
  progress: number;
  total?: number;
  message?: string;
}

/** Parameters of `notifications/cancelled`. */
export interface CancelledNotificationParams {
  requestId?: string | number;
  reason?: string;
}

/** Progress as reported to an `onProgress` callback. */
export interface Progress {
  progress: number;
  total?: number;
  message?: string;
}
