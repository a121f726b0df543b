/** Text layout for human output: tables, truncation, sizes. No I/O. */
import { widthOf as terminalWidth } from "./terminal.js";

/** How much long text shows before it is cut (unless `--full`). */
interface Limits {
  chars: number;
  lines: number;
}

export const CONTENT_LIMITS: Limits = { chars: 4000, lines: 80 };
export const SHORT_LIMITS: Limits = { chars: 600, lines: 8 };

/** The width tables fit: the terminal's; when stdout is not one, `COLUMNS` if set, else 120. */
function outputWidth(): number {
  return Math.max(40, terminalWidth(process.stdout, 120));
}

/** A column that may be cut is not cut narrower than this; the last one gets at least `MIN_LAST`. */
const MIN_CELL = 8;
const MIN_LAST = 16;

/** "68 B", "1.2 kB", "3.4 MB". */
export function formatSize(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const units = ["kB", "MB", "GB", "TB"];
  let value = bytes;
  let unit = "";
  for (const next of units) {
    value /= 1000;
    unit = next;
    if (value < 1000) break;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${unit}`;
}

/** The decoded size of base64 data. */
export function base64Size(data: string): number {
  return Buffer.byteLength(data, "base64");
}

const plural = (n: number, word: string) => `${n.toLocaleString("en-US")} ${word}${n === 1 ? "" : "s"}`;

/**
 * `text` cut to `limits` (whole lines first, then characters), followed by a note saying how much is
 * left out. Unchanged when `full` or short enough.
 */
export function truncate(text: string, limits: Limits, full = false): string {
  if (full) return text;
  const lines = text.split("\n");
  let kept = lines.length > limits.lines ? lines.slice(0, limits.lines).join("\n") : text;
  if (kept.length > limits.chars) kept = kept.slice(0, limits.chars);
  if (kept.length === text.length) return text;
  const restLines = text.slice(kept.length).split("\n").length - 1;
  const rest =
    restLines > 0 ? plural(restLines, "more line") : plural(text.length - kept.length, "more character");
  return `${kept.trimEnd()}\n… (truncated: ${rest}; --full shows everything)`;
}

/** The first line of `text`, whitespace collapsed. */
export function oneLine(text: string | undefined): string {
  if (!text) return "";
  const first = text.trim().split("\n")[0] ?? "";
  const flat = first.replace(/\s+/g, " ").trim();
  return text.trim().includes("\n") && flat.length > 0 ? `${flat} …` : flat;
}

/** `text` cut to `width` characters with an ellipsis. */
export function clip(text: string, width: number): string {
  const chars = [...text];
  return chars.length <= width ? text : `${chars.slice(0, Math.max(1, width - 1)).join("")}…`;
}

const widthOf = (text: string) => [...text].length;

/**
 * An aligned table: a header row, then one row per item, fitting `width`. Columns but the last are
 * at most `maxColumn` wide, except the `whole` ones (names, URIs: never cut); when that is still too
 * wide the widest of the others narrow, and the last column gets what is left. Cells are cut with "…"
 * unless `full`. `heading` styles the header row (after alignment: styles add no width).
 */
export function table(
  headers: string[],
  rows: string[][],
  options: {
    full?: boolean;
    width?: number;
    maxColumn?: number;
    whole?: number[];
    indent?: string;
    heading?: (line: string) => string;
  } = {},
): string {
  const { full = false, width = outputWidth(), maxColumn = 40, whole = [0], indent = "  " } = options;
  const last = headers.length - 1;
  const widths = headers.map((header, column) => {
    const widest = Math.max(widthOf(header), ...rows.map((row) => widthOf(row[column] ?? "")));
    return full || column === last || whole.includes(column) ? widest : Math.min(widest, maxColumn);
  });
  if (!full) fitColumns(widths, width - indent.length, whole);
  const render = (cells: string[]) =>
    indent +
    cells
      .map((cell, column) => {
        const text = full ? cell : clip(cell, widths[column]!);
        return column === last ? text : text.padEnd(widths[column]! + 2 + (text.length - widthOf(text)));
      })
      .join("")
      .trimEnd();
  const heading = options.heading ?? ((line: string) => line);
  return [heading(render(headers)), ...rows.map(render)].join("\n");
}

/** Narrows `widths` (2 columns apart) to `width`: the widest cuttable columns first, then the last. */
function fitColumns(widths: number[], width: number, whole: number[]): void {
  const last = widths.length - 1;
  let used = widths.slice(0, last).reduce((sum, w) => sum + w + 2, 0);
  const lastNeeds = Math.min(widths[last]!, MIN_LAST);
  while (used + lastNeeds > width) {
    let widest = -1;
    for (let column = 0; column < last; column++) {
      if (whole.includes(column) || widths[column]! <= MIN_CELL) continue;
      if (widest < 0 || widths[column]! > widths[widest]!) widest = column;
    }
    if (widest < 0) break;
    widths[widest]!--;
    used--;
  }
  widths[last] = Math.min(widths[last]!, Math.max(lastNeeds, width - used));
}

/** A `label  value` block with the labels aligned. */
export function fields(entries: [string, string | undefined][]): string {
  const shown = entries.filter(
    (entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== "",
  );
  const width = Math.max(...shown.map(([label]) => label.length));
  return shown.map(([label, value]) => `${label.padEnd(width)}  ${value}`).join("\n");
}

/** Indents every line of `text`. */
export function indent(text: string, prefix = "  "): string {
  return text
    .split("\n")
    .map((line) => (line.length > 0 ? prefix + line : line))
    .join("\n");
}
