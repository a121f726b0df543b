/** Which request a line skipped for its size answered, read from the line's two ends alone. */
import type { RequestId } from "../../jsonrpc/messages.js";
import type { SkippedLine } from "./line-guard.js";

const STRING = String.raw`"(?:[^"\\]|\\.)*"`;
const SCALAR = String.raw`-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|${STRING}|true|false|null`;
/** A member at the start of the object: its name, and its value when that is a plain value. */
const LEADING = new RegExp(String.raw`\s*(${STRING})\s*:\s*(?:(${SCALAR})\s*(?:,|\}))?`, "y");
/** A plain-valued member at the end of the object (its closing brace already cut off). */
const TRAILING = new RegExp(String.raw`,\s*(${STRING})\s*:\s*(${SCALAR})\s*$`);
const OPEN = /^\s*\{/;
const CLOSE = /\}\s*$/;
/** Members looked at from each end; a response has four at most. */
const MOST = 8;

/**
 * The `id` of the response a skipped line holds, or `undefined` when its ends do not show one.
 * A large message is one object with one large member: the members with plain values before it
 * are in the line's head and those after it in its tail, wherever the sender put `id`. The line
 * is a response when that large member is `result` or `error` and no member is `method` (a
 * request's `params` is as large as a result can be).
 */
export function skippedResponseId({ head, tail }: SkippedLine): RequestId | undefined {
  const members = new Map<string, string>();
  const open = OPEN.exec(head);
  if (!open) return undefined;
  let large: string | undefined;
  LEADING.lastIndex = open[0].length;
  for (let n = 0; n < MOST; n++) {
    const member = LEADING.exec(head);
    if (!member) break;
    const name = String(parsed(member[1]!));
    if (member[2] === undefined) {
      large = name;
      break;
    }
    members.set(name, member[2]);
  }
  if (large !== "result" && large !== "error") return undefined;
  let rest = CLOSE.test(tail) ? tail.replace(CLOSE, "") : undefined;
  for (let n = 0; rest !== undefined && n < MOST; n++) {
    const member = TRAILING.exec(rest);
    if (!member) break;
    members.set(String(parsed(member[1]!)), member[2]!);
    rest = rest.slice(0, member.index);
  }
  if (members.has("method")) return undefined;
  const id = members.get("id");
  if (id === undefined) return undefined;
  const value = parsed(id);
  return typeof value === "string" || typeof value === "number" ? value : undefined;
}

/** A plain JSON value; `undefined` for an escape JSON does not have (`"\\x"`), which the patterns let through. */
function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
