/**
 * stderr: notes (logs, warnings) line by line and, on a terminal, one status line (progress) kept
 * under them and rewritten in place. stdout is never touched here.
 */
import type { Progress } from "../../protocol/types/base.js";
import { clip } from "./format.js";
import { peerText } from "./peer-text.js";

let status = "";

const terminal = () => process.stderr.isTTY === true;

function erase(): void {
  if (status && terminal()) process.stderr.write("\r\x1b[2K");
}

function draw(): void {
  if (status && terminal())
    process.stderr.write(clip(status, Math.max(20, (process.stderr.columns || 80) - 1)));
}

/** Writes one line to stderr, above the status line. */
export function note(line: string): void {
  erase();
  process.stderr.write(`${line}\n`);
  draw();
}

/** Replaces the status line (a terminal only). */
export function setStatus(text: string): void {
  erase();
  status = text;
  draw();
}

/** Removes the status line. */
export function clearStatus(): void {
  erase();
  status = "";
}

/** `[#####-----]  50%` for a known total, else the count; then the message, inert. */
export function describeProgress(progress: Progress): string {
  const { total, message } = progress;
  let done = peerText(progress.progress, "name");
  if (typeof total === "number" && total > 0 && typeof progress.progress === "number") {
    const ratio = Math.min(1, Math.max(0, progress.progress / total));
    const filled = Math.round(ratio * 20);
    done = `[${"#".repeat(filled)}${"-".repeat(20 - filled)}] ${Math.round(ratio * 100)}%`.padEnd(27);
  }
  return message ? `${done}  ${peerText(message, "message")}` : done;
}

/**
 * The progress callback for a request: on a terminal a status line rewritten in place, with
 * `mode: "lines"` one stderr line per notification, with "off" nothing.
 */
export function progressReporter(
  label: string,
  mode: "status" | "lines" | "off",
): ((p: Progress) => void) | undefined {
  if (mode === "off") return undefined;
  return (progress) => {
    const text = `${label} ${describeProgress(progress)}`;
    if (mode === "lines") note(text);
    else setStatus(text);
  };
}
