import type { LoggingLevel } from "../../protocol/types/client-features.js";

/** Levels from least to most severe. */
export const LOGGING_LEVELS: readonly LoggingLevel[] = [
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency",
];

const rank = new Map(LOGGING_LEVELS.map((level, i) => [level, i]));

export function isLoggingLevel(value: unknown): value is LoggingLevel {
  return typeof value === "string" && rank.has(value as LoggingLevel);
}

/** Whether a message at `level` passes a client's `minimum` (no minimum: everything passes). */
export function passes(level: LoggingLevel, minimum: LoggingLevel | undefined): boolean {
  return minimum === undefined || rank.get(level)! >= rank.get(minimum)!;
}
