/**
 * Text from a peer (a server, its stderr, an authorization server) as the CLI shows it: every
 * string a peer chose goes through `peerText` (or `inertJson`) before it is written, so no control
 * sequence of it reaches the terminal and its length is capped by what kind of text it is.
 */
import { inertText } from "../../util/inert-text.js";

/**
 * Each kind of peer text: the longest shown (in UTF-16 units; the rest is replaced by a count) and
 * whether its line feeds are kept.
 */
export const PEER_TEXT = {
  /** Names, titles, versions, MIME types, roles, ids, statuses: one line. */
  name: { max: 200, lines: false },
  /** URIs, progress messages, stderr lines, questions, values listed one per line: one line. */
  message: { max: 4 * 1024, lines: false },
  /** Text read as a paragraph: descriptions, log messages, error messages (a stderr tail included). */
  text: { max: 16 * 1024, lines: true },
  /** What the user asked to see (all of it with --full): tool output, resource text, prompts, instructions. */
  content: { max: 1024 * 1024, lines: true },
} as const;

type PeerTextKind = keyof typeof PEER_TEXT;

/**
 * `text` made inert for a terminal: control characters (ESC, BEL, CR, C1, bidi overrides…) written
 * as visible escapes (`\x1b`), line feeds kept only for the multi-line kinds, cut to the kind's
 * length. A value that is not a string (a peer may send anything) is shown as its string form.
 */
export function peerText(text: unknown, kind: PeerTextKind): string {
  return inertText(typeof text === "string" ? text : String(text), PEER_TEXT[kind]);
}

// What JSON.stringify leaves raw inside strings that a terminal may act on: DEL, the C1 controls
// (U+009B is a one-character CSI) and the bidirectional overrides and isolates.
const JSON_UNSAFE = /[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * `value` as JSON (indented by `space`) with no character a terminal acts on: JSON.stringify
 * escapes the C0 controls, and the rest are written as `\uXXXX` too. Such characters only occur
 * inside strings, so the JSON parses to the same value: nothing is lost, and nothing is capped.
 */
export function inertJson(value: unknown, space?: number): string {
  return (JSON.stringify(value, null, space) ?? "null").replace(
    JSON_UNSAFE,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
