/**
 * Text from a peer (an MCP server, an authorization server, a child's stderr) made inert before it
 * reaches a terminal, a log line or an error message: control characters cannot move the cursor,
 * clear the screen, set the window title or hide text, and its length is capped.
 */

/** Default cap, in UTF-16 units, for one piece of peer text. */
export const PEER_TEXT_LIMIT = 1024;

interface InertTextOptions {
  /** Longest text kept, in UTF-16 units; the rest is replaced by a count. Default 1 KiB. */
  max?: number;
  /** Keep line feeds (and tabs) as they are, for multi-line text such as tool output. Default false. */
  lines?: boolean;
}

// C0 controls (ESC, BEL, CR, BS…), DEL, C1 controls (0x9b is a one-byte CSI), and the bidirectional
// overrides and isolates that reorder what a reader sees.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const UNSAFE_KEEP_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * `text` with every control character written as a visible escape (`\x1b`, `\r`, `\u202e`) and cut
 * to `max` characters with a note of how many were left out.
 */
export function inertText(text: string, options: InertTextOptions = {}): string {
  const max = options.max ?? PEER_TEXT_LIMIT;
  const cut = text.length > max ? text.slice(0, max) : text;
  const escaped = cut.replace(options.lines ? UNSAFE_KEEP_LINES : UNSAFE, escapeChar);
  return cut === text ? escaped : `${escaped}… (${text.length - max} more characters)`;
}

function escapeChar(char: string): string {
  const code = char.charCodeAt(0);
  if (char === "\r") return "\\r";
  if (char === "\n") return "\\n";
  if (char === "\t") return "\\t";
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16)}`;
}
