import type { Era, Revision } from "./revision.js";
import { REVISION_TABLE } from "./table.js";

export {
  carriesStructuredOutput,
  type ElicitationRules,
  type Era,
  type HeaderRules,
  type Revision,
  type TaskRules,
} from "./revision.js";

/** A protocol version mcpkit speaks: one per row of the revision table. */
export type ProtocolVersion = (typeof REVISION_TABLE)[number]["version"];

/** Every revision mcpkit speaks, newest first. */
export const REVISIONS: readonly Revision<ProtocolVersion>[] = REVISION_TABLE;

const byVersion = new Map<string, Revision<ProtocolVersion>>(REVISIONS.map((r) => [r.version, r]));

const versionsOf = (era: Era) => REVISIONS.filter((r) => r.era === era).map((r) => r.version);

/** Versions mcpkit speaks statelessly, with per-request `_meta`, newest first. */
export const MODERN_VERSIONS: readonly ProtocolVersion[] = versionsOf("modern");

/** Versions mcpkit speaks with the `initialize` handshake, newest first. */
export const LEGACY_VERSIONS: readonly ProtocolVersion[] = versionsOf("legacy");

/** Every version mcpkit speaks, newest first. */
export const SUPPORTED_VERSIONS: readonly ProtocolVersion[] = REVISIONS.map((r) => r.version);

/** The newest handshake-based revision. */
export const LATEST_LEGACY_VERSION: ProtocolVersion = LEGACY_VERSIONS[0]!;

/** The newest stateless revision. */
export const LATEST_MODERN_VERSION: ProtocolVersion = MODERN_VERSIONS[0]!;

/** The revision for a version string, or `undefined` if mcpkit does not speak it. */
export function revisionOf(version: string): Revision<ProtocolVersion> | undefined {
  return byVersion.get(version);
}
export { adaptContent, adaptDescription, adaptTool } from "./adapt.js";
