/**
 * Where the official MCP JSON Schemas (`<revision>/schema.json`) are: `$MCP_SPEC_DIR`, else
 * `<repo root>/../shared/spec/`. The repository does not hold them; without them the checks that
 * use them are skipped (test/helpers/spec-schema-notice.ts says so once per run), and with
 * `MCP_SPEC_DIR` set they are required.
 */
import { existsSync, readFileSync } from "node:fs";
import { resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

/** `../shared/spec/` beside the repository — this file lives in `<repo root>/test/helpers/`. */
const BESIDE_REPO = fileURLToPath(new URL("../../../shared/spec/", import.meta.url));

const explicit = process.env.MCP_SPEC_DIR;

/** The folder of per-revision schemas, with a trailing separator. */
export const SPEC_DIR = explicit ? `${resolve(explicit)}${sep}` : BESIDE_REPO;

/**
 * Whether the schema checks run: always when `MCP_SPEC_DIR` is set (a wrong one then fails loudly),
 * else when `../shared/spec/` exists.
 */
export const specSchemasAvailable = Boolean(explicit) || existsSync(SPEC_DIR);

/** The one line a run prints when the schema checks are skipped. */
export const SPEC_SKIPPED_NOTICE =
  `MCP spec schemas not found (no ${SPEC_DIR}): skipped the SpecChecker tests ` +
  "(test/helpers/spec-schema.test.ts), the official-schema comparisons in test/protocol/elicitation.test.ts " +
  "and the spec-schema validation of every recorded message (MessageLog.problems, SpecChecker.check). " +
  "To run them, set MCP_SPEC_DIR to a folder with <revision>/schema.json for each revision " +
  "(2024-11-05 … 2026-07-28), or put them in ../shared/spec beside the repository.";

/** The parsed `<revision>/schema.json`; throws naming the file when it is missing. */
export function loadSpecSchema(revision: string): Record<string, unknown> {
  const file = `${SPEC_DIR}${revision}${sep}schema.json`;
  if (!existsSync(file)) throw new Error(`no MCP schema for revision "${revision}" (looked for ${file})`);
  return JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
}
