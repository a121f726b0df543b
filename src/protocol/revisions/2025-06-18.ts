import { revision_2025_03_26 } from "./2025-03-26.js";
import { deriveRevision } from "./revision.js";

/** Adds elicitation, structured tool output, resource links and titles; drops JSON-RPC batches. */
export const revision_2025_06_18 = deriveRevision(revision_2025_03_26, {
  version: "2025-06-18",
  add: { serverRequests: ["elicitation/create"], contentTypes: ["resource_link"] },
  structuredToolOutput: true,
  titles: true,
  batches: false,
  elicitation: { titledEnums: false, multiSelect: false, defaults: "booleans", urlMode: false },
});
