import { revision_2025_11_25 } from "./2025-11-25.js";
import { defineRevision } from "./revision.js";

/**
 * The stateless revision: no handshake, version and capabilities in every request's `_meta`,
 * `server/discover`, multi round-trip requests instead of server→client requests,
 * `subscriptions/listen` instead of the GET stream and `resources/subscribe`, caching hints.
 */
export const revision_2026_07_28 = defineRevision({
  ...revision_2025_11_25,
  version: "2026-07-28",
  era: "modern",
  anyStructuredOutput: true,
  clientRequests: new Set([
    "server/discover",
    "tools/list",
    "tools/call",
    "resources/list",
    "resources/templates/list",
    "resources/read",
    "prompts/list",
    "prompts/get",
    "completion/complete",
    "subscriptions/listen",
  ]),
  // Sampling, elicitation and roots travel inside InputRequiredResult, never as requests.
  serverRequests: new Set(),
  clientNotifications: new Set(["notifications/cancelled"]),
  serverNotifications: new Set([
    "notifications/cancelled",
    "notifications/progress",
    "notifications/message",
    "notifications/resources/updated",
    "notifications/resources/list_changed",
    "notifications/tools/list_changed",
    "notifications/prompts/list_changed",
    "notifications/subscriptions/acknowledged",
  ]),
  // The tasks extension (SEP-2663): the server decides, and the task inlines what it has.
  tasks: {
    requestedByClient: false,
    createResult: "flat",
    resultVia: "tasks/get",
    listing: false,
    toolErrorFails: false,
    statusVia: "listen",
    input: "inputRequests",
  },
  headers: { versionPerRequest: true, mirrored: true, sessionId: false },
  cacheable: new Set([
    "server/discover",
    "tools/list",
    "prompts/list",
    "resources/list",
    "resources/templates/list",
    "resources/read",
  ]),
  asking: { "tools/call": "name", "prompts/get": "name", "resources/read": "uri" },
});
