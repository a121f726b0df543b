import { revision_2025_06_18 } from "./2025-06-18.js";
import { deriveRevision } from "./revision.js";

/** Adds icons, URL-mode elicitation, tools in sampling and tasks. */
export const revision_2025_11_25 = deriveRevision(revision_2025_06_18, {
  version: "2025-11-25",
  add: {
    clientRequests: ["tasks/get", "tasks/result", "tasks/list", "tasks/cancel"],
    serverRequests: ["tasks/get", "tasks/result", "tasks/list", "tasks/cancel"],
    clientNotifications: ["notifications/tasks/status"],
    serverNotifications: ["notifications/tasks/status", "notifications/elicitation/complete"],
  },
  icons: true,
  tasks: {
    requestedByClient: true,
    createResult: "nested",
    resultVia: "tasks/result",
    listing: true,
    toolErrorFails: true,
    statusVia: "notification",
    input: "requests",
  },
  elicitation: { titledEnums: true, multiSelect: true, defaults: "all", urlMode: true },
});
