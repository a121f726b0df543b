import { revision_2024_11_05 } from "./2024-11-05.js";
import { revision_2025_03_26 } from "./2025-03-26.js";
import { revision_2025_06_18 } from "./2025-06-18.js";
import { revision_2025_11_25 } from "./2025-11-25.js";
import { revision_2026_07_28 } from "./2026-07-28.js";

/**
 * The revision table: every revision mcpkit speaks, newest first, one row per revision module.
 * `ProtocolVersion`, the latest versions and the era's method sets are derived from it
 * (`./index.ts`), so a new revision is its module and its row here.
 */
export const REVISION_TABLE = [
  revision_2026_07_28,
  revision_2025_11_25,
  revision_2025_06_18,
  revision_2025_03_26,
  revision_2024_11_05,
] as const;
