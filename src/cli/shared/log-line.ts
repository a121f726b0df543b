import type { LoggingMessageNotificationParams } from "../../protocol/types/client-features.js";
import { inertJson, peerText } from "./peer-text.js";
import { err, type Style } from "./terminal.js";

/** How each log level stands out on a terminal. */
const LEVEL_STYLES: Partial<Record<string, Style>> = {
  debug: "dim",
  warning: "yellow",
  error: "red",
  critical: "red",
  alert: "red",
  emergency: "red",
};

/**
 * `[level] logger: message`, inert; the lines of a message after its first are indented, so that
 * none passes for a line of mcpkit's own.
 */
export function formatLog({ level, logger, data }: LoggingMessageNotificationParams): string {
  const text = peerText(typeof data === "string" ? data : inertJson(data), "text").replaceAll("\n", "\n  ");
  const style =
    typeof level === "string" && Object.hasOwn(LEVEL_STYLES, level) ? LEVEL_STYLES[level] : undefined;
  const shown = `[${peerText(level, "name")}]`;
  return `${style ? err(style, shown) : shown}${logger ? ` ${peerText(logger, "name")}:` : ""} ${text}`;
}
