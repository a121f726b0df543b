import type { Revision } from "./revision.js";

/** The first published revision: handshake, tools, resources, prompts, logging, sampling, roots, HTTP+SSE. */
export const revision_2024_11_05: Revision = {
  version: "2024-11-05",
  era: "legacy",
  clientRequests: new Set([
    "initialize",
    "ping",
    "tools/list",
    "tools/call",
    "resources/list",
    "resources/templates/list",
    "resources/read",
    "resources/subscribe",
    "resources/unsubscribe",
    "prompts/list",
    "prompts/get",
    "completion/complete",
    "logging/setLevel",
  ]),
  serverRequests: new Set(["ping", "sampling/createMessage", "roots/list"]),
  clientNotifications: new Set([
    "notifications/initialized",
    "notifications/cancelled",
    "notifications/progress",
    "notifications/roots/list_changed",
  ]),
  serverNotifications: new Set([
    "notifications/cancelled",
    "notifications/progress",
    "notifications/message",
    "notifications/resources/updated",
    "notifications/resources/list_changed",
    "notifications/tools/list_changed",
    "notifications/prompts/list_changed",
  ]),
  contentTypes: new Set(["text", "image", "resource"]),
  structuredToolOutput: false,
  anyStructuredOutput: false,
  toolAnnotations: false,
  titles: false,
  icons: false,
};
