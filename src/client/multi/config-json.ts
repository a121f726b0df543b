/** Parsing a config file's JSON, with the line and column of a syntax error. */
import { ConfigError } from "./config-error.js";

const WHITESPACE = new Set([" ", "\t", "\n", "\r"]);
const isDigit = (c: string | undefined) => c !== undefined && c >= "0" && c <= "9";

/**
 * Where the first syntax error of `text` is, as an index (`text.length` when it ends too soon), or -1
 * if there is none. Used when `JSON.parse` names no position (Node 20 says only "Unexpected token
 * '}', "…" is not valid JSON" for some errors). A loop with its own stack, so any nesting is safe.
 */
export function syntaxErrorIndex(text: string): number {
  const n = text.length;
  const stack: ("{" | "[")[] = [];
  let state: "value" | "valueOrEnd" | "key" | "keyOrEnd" | "after" = "value";
  let i = 0;

  const string = (): boolean => {
    for (i++; i < n; ) {
      const c = text[i]!;
      if (c === '"') {
        i++;
        return true;
      }
      if (c === "\\") {
        const start = i;
        const next = text[i + 1];
        if (next !== undefined && '"\\/bfnrt'.includes(next)) i += 2;
        else if (next === "u") {
          for (i += 2; i < n && /[0-9a-fA-F]/.test(text[i]!) && i < start + 6; ) i++;
          if (i < start + 6) return false;
        } else {
          i++;
          return false;
        }
      } else if (c.charCodeAt(0) < 0x20) return false;
      else i++;
    }
    return false;
  };

  /** Past a number, or false with `i` where it goes wrong (as JSON.parse reports it). */
  const number = (): boolean => {
    if (text[i] === "-") i++;
    if (!isDigit(text[i])) return false;
    if (text[i] === "0") i++;
    else while (isDigit(text[i])) i++;
    if (text[i] === ".") {
      i++;
      if (!isDigit(text[i])) return false;
      while (isDigit(text[i])) i++;
    }
    if (text[i] === "e" || text[i] === "E") {
      i++;
      if (text[i] === "+" || text[i] === "-") i++;
      if (!isDigit(text[i])) return false;
      while (isDigit(text[i])) i++;
    }
    return true;
  };

  for (;;) {
    while (i < n && WHITESPACE.has(text[i]!)) i++;
    if (i >= n) return state === "after" && stack.length === 0 ? -1 : n;
    const c = text[i]!;
    if (state === "after") {
      const top = stack.at(-1);
      if (top === undefined) return i;
      if (c === ",") {
        i++;
        state = top === "{" ? "key" : "value";
      } else if (c === (top === "{" ? "}" : "]")) {
        stack.pop();
        i++;
      } else return i;
      continue;
    }
    if (state === "keyOrEnd" || state === "valueOrEnd") {
      if (c === (state === "keyOrEnd" ? "}" : "]")) {
        stack.pop();
        i++;
        state = "after";
        continue;
      }
      state = state === "keyOrEnd" ? "key" : "value";
    }
    if (state === "key") {
      if (c !== '"' || !string()) return i;
      while (i < n && WHITESPACE.has(text[i]!)) i++;
      if (text[i] !== ":") return i;
      i++;
      state = "value";
      continue;
    }
    // A value.
    if (c === "{" || c === "[") {
      stack.push(c);
      i++;
      state = c === "{" ? "keyOrEnd" : "valueOrEnd";
      continue;
    }
    if (c === '"') {
      if (!string()) return i;
    } else if (c === "-" || isDigit(text[i])) {
      if (!number()) return i;
    } else {
      // Like JSON.parse, point at the first character that leaves the literal.
      const word = c === "t" ? "true" : c === "f" ? "false" : c === "n" ? "null" : undefined;
      if (word === undefined) return i;
      for (let k = 0; k < word.length; k++, i++) if (text[i] !== word[k]) return i;
    }
    state = "after";
  }
}

/** Line and column (from 1) of an index into `text`. */
function lineAndColumn(text: string, index: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let at = text.indexOf("\n"); at !== -1 && at < index; at = text.indexOf("\n", at + 1)) {
    line++;
    start = at + 1;
  }
  return { line, column: index - start + 1 };
}

/**
 * `JSON.parse` for a config file (a leading byte-order mark is dropped): invalid JSON throws a
 * `ConfigError` with the line and column, `mcp.json:3:18: invalid JSON: Expected double-quoted
 * property name`.
 */
export function parseConfigJson(text: string, file?: string): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return JSON.parse(body);
  } catch (error) {
    const message = (error as Error).message;
    const reported = /at position (\d+)/.exec(message);
    const index = reported ? Number(reported[1]) : syntaxErrorIndex(body);
    const problem = message
      .replace(/,\s*(?:\.\.\.)?".*is not valid JSON$/s, "")
      .replace(/\s+(?:in JSON\s+)?at position \d+.*$/s, "");
    const where = index >= 0 ? lineAndColumn(body, index) : {};
    throw new ConfigError(`invalid JSON: ${problem}`, { file, ...where });
  }
}
