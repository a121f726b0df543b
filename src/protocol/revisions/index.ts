import { revision_2024_11_05 } from "./2024-11-05.js";
import { revision_2025_03_26 } from "./2025-03-26.js";
import { revision_2025_06_18 } from "./2025-06-18.js";
import { revision_2025_11_25 } from "./2025-11-25.js";
import { revision_2026_07_28 } from "./2026-07-28.js";
import type { ProtocolVersion, Revision } from "./revision.js";

export {
  carriesStructuredOutput,
  type ElicitationRules,
  type Era,
  type ProtocolVersion,
  type Revision,
} from "./revision.js";

/** Every revision mcpkit speaks, newest first. */
export const REVISIONS: readonly Revision[] = [
  revision_2026_07_28,
  revision_2025_11_25,
  revision_2025_06_18,
  revision_2025_03_26,
  revision_2024_11_05,
];

const byVersion = new Map(REVISIONS.map((r) => [r.version, r]));

/** The newest handshake-based revision. */
export const LATEST_LEGACY_VERSION = revision_2025_11_25.version;

/** The newest stateless revision. */
export const LATEST_MODERN_VERSION = revision_2026_07_28.version;

/** Versions mcpkit speaks statelessly, with per-request `_meta`, newest first. */
export const MODERN_VERSIONS: readonly ProtocolVersion[] = REVISIONS.filter((r) => r.era === "modern").map(
  (r) => r.version,
);

/** Every version mcpkit speaks, newest first. */
export const SUPPORTED_VERSIONS: readonly ProtocolVersion[] = REVISIONS.map((r) => r.version);

/** Versions mcpkit speaks with the `initialize` handshake, newest first. */
export const LEGACY_VERSIONS: readonly ProtocolVersion[] = REVISIONS.filter((r) => r.era === "legacy").map(
  (r) => r.version,
);

/** The revision for a version string, or `undefined` if mcpkit does not speak it. */
export function revisionOf(version: string): Revision | undefined {
  return byVersion.get(version as ProtocolVersion);
}
export { adaptContent, adaptDescription, adaptTool } from "./adapt.js";
