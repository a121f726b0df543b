import type { ProgressNotificationParams } from "../../protocol/types/base.js";
import type { LoggingMessageNotificationParams } from "../../protocol/types/client-features.js";
import type { ListKind } from "../channels/channel.js";

/** Every server notification a client can listen to with `client.on(...)`. */
export interface ClientEvents {
  toolsListChanged: undefined;
  resourcesListChanged: undefined;
  promptsListChanged: undefined;
  /** A subscribed resource changed; read it again. */
  resourceUpdated: { uri: string };
  /** A `notifications/message` log entry. */
  log: LoggingMessageNotificationParams;
  /** Any progress notification, including those of requests with their own `onProgress`. */
  progress: ProgressNotificationParams;
  /** A URL-mode elicitation finished on the server (2025-11-25). */
  elicitationComplete: { elicitationId: string };
  /** Something the client left out or worked around, worth a log line (e.g. an invalid tool definition). */
  warning: string;
  /**
   * Something the server sent that the client dropped, or another problem that ended no request: a
   * malformed response (both `result` and `error`, say), a line of a stdio server's stdout that is
   * not JSON, a response to a request that is no longer waiting.
   */
  protocolError: Error;
  /** The connection ended; with the reason if it failed. */
  close: Error | undefined;
}

/** Which notification raises which event. */
export const NOTIFICATION_EVENTS: Record<string, keyof ClientEvents> = {
  "notifications/tools/list_changed": "toolsListChanged",
  "notifications/resources/list_changed": "resourcesListChanged",
  "notifications/prompts/list_changed": "promptsListChanged",
  "notifications/resources/updated": "resourceUpdated",
  "notifications/message": "log",
  "notifications/elicitation/complete": "elicitationComplete",
};

/** Events that need the server to announce a list's changes, and the list. */
export const LIST_EVENTS: Partial<Record<keyof ClientEvents, ListKind>> = {
  toolsListChanged: "tools",
  promptsListChanged: "prompts",
  resourcesListChanged: "resources",
};
