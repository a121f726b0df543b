/**
 * Vitest global setup: says once per run, at its end, which checks were skipped for want of the MCP
 * spec schemas (see spec-schema-location.ts).
 */
import { SPEC_SKIPPED_NOTICE, specSchemasAvailable } from "./spec-schema-location.js";

export default function setup(): (() => void) | undefined {
  if (specSchemasAvailable) return undefined;
  return () => console.log(`\n${SPEC_SKIPPED_NOTICE}\n`);
}
