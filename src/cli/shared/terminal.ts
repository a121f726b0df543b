/**
 * What the terminal allows: colour (on a terminal only, `NO_COLOR` and `FORCE_COLOR` honoured) and
 * the width output should fit.
 */
import { styleText } from "node:util";

type Stream = { isTTY?: boolean; columns?: number };

/** The styles the CLI uses; each is one of `util.styleText`'s formats. */
export type Style = "bold" | "dim" | "red" | "yellow" | "green" | "cyan";

/**
 * Whether to colour what goes to `stream`. `FORCE_COLOR` (anything but `0` or `false`) wins, as in
 * Node; then a non-empty `NO_COLOR` turns colour off; else only a terminal that is not `dumb` gets it.
 */
export function colorEnabled(stream: Stream, env: NodeJS.ProcessEnv = process.env): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== "0" && force.toLowerCase() !== "false";
  if (env.NO_COLOR) return false;
  return stream.isTTY === true && env.TERM !== "dumb";
}

/** `text` in `style` when `stream` takes colour, else as it is. */
function paint(stream: Stream, style: Style, text: string): string {
  // styleText is missing before Node 20.12; Node 20 never checks the stream, later ones would check
  // stdout (not necessarily the stream written to): the check is ours.
  if (typeof styleText !== "function" || !colorEnabled(stream)) return text;
  return styleText(style, text, { validateStream: false });
}

/** On stdout. */
export const out = (style: Style, text: string) => paint(process.stdout, style, text);

/** On stderr. */
export const err = (style: Style, text: string) => paint(process.stderr, style, text);

/**
 * The width `stream`'s output should fit: the terminal's; when it is not a terminal, `COLUMNS` if
 * set, else `fallback`.
 */
export function widthOf(stream: Stream, fallback: number, env: NodeJS.ProcessEnv = process.env): number {
  if (stream.isTTY && stream.columns) return stream.columns;
  const columns = Number(env.COLUMNS);
  return Number.isInteger(columns) && columns > 0 ? columns : fallback;
}
