import { revision_2024_11_05 } from "./2024-11-05.js";
import { deriveRevision } from "./revision.js";

/** Adds audio content, tool annotations, completions capability, Streamable HTTP and JSON-RPC batches. */
export const revision_2025_03_26 = deriveRevision(revision_2024_11_05, {
  version: "2025-03-26",
  add: { contentTypes: ["audio"] },
  toolAnnotations: true,
  progressMessage: true,
  completionsCapability: true,
  batches: true,
});
