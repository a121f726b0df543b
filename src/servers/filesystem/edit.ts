import { FsError } from "./errors.js";

/** One exact-text replacement. */
export interface TextEdit {
  oldText: string;
  newText: string;
}

function occurrences(haystack: string, needle: string): number {
  let count = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length))
    count++;
  return count;
}

/**
 * Applies edits in order, each to the result of the previous one. Each `oldText` must occur exactly
 * once, character for character (a file with CRLF line ends also matches LF-written text, which is
 * then written back with CRLF). Throws, naming the file and the edit, when one does not apply; nothing
 * is changed then.
 */
export function applyEdits(content: string, edits: readonly TextEdit[], display: string): string {
  let result = content;
  edits.forEach(({ oldText, newText }, index) => {
    const which = edits.length > 1 ? `edit ${index + 1} of ${edits.length}` : "the edit";
    const fail = (why: string) =>
      new FsError(`Cannot edit "${display}": ${which} ${why}; nothing was changed`);
    if (oldText === "") throw fail("has an empty oldText");
    let from = oldText;
    let to = newText;
    let count = occurrences(result, from);
    if (count === 0 && result.includes("\r\n") && !from.includes("\r")) {
      from = oldText.replace(/\n/g, "\r\n");
      to = newText.replace(/\r?\n/g, "\r\n");
      count = occurrences(result, from);
    }
    if (count === 0)
      throw fail(
        "does not match: its oldText is not in the file (it must match exactly, whitespace included)",
      );
    if (count > 1) {
      throw fail(
        `is ambiguous: its oldText occurs ${count} times; include more surrounding text so it occurs once`,
      );
    }
    const at = result.indexOf(from);
    result = result.slice(0, at) + to + result.slice(at + from.length);
  });
  return result;
}

type Op = readonly [" " | "-" | "+", string];

/** Most differences Myers' algorithm looks for before showing the changed middle as replaced. */
const MAX_DIFFERENCES = 2000;

/** A shortest edit script between two line lists (Myers), or `undefined` past MAX_DIFFERENCES. */
function myers(a: readonly string[], b: readonly string[]): Op[] | undefined {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, MAX_DIFFERENCES);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice(offset - d, offset + d + 1)); // v before step d, for k in -d..d
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!)
          ? v[offset + k + 1]!
          : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return backtrack(trace, a, b, d);
    }
  }
  return undefined;
}

function backtrack(trace: Int32Array[], a: readonly string[], b: readonly string[], depth: number): Op[] {
  const ops: Op[] = [];
  let x = a.length;
  let y = b.length;
  for (let d = depth; d > 0; d--) {
    const before = trace[d]!;
    const at = (k: number) => before[k + d]!;
    const k = x - y;
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const prevK = down ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      ops.push([" ", a[--x]!]);
      y--;
    }
    if (down) ops.push(["+", b[--y]!]);
    else ops.push(["-", a[--x]!]);
  }
  while (x > 0) ops.push([" ", a[--x]!]);
  return ops.reverse();
}

/** A unified diff (three lines of context) of two texts, in a ```diff block; "no changes" if equal. */
export function unifiedDiff(before: string, after: string, name: string, context = 3): string {
  if (before === after) return `No changes to ${name}.`;
  const a = before.split("\n");
  const b = after.split("\n");
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const middleA = a.slice(start, endA);
  const middleB = b.slice(start, endB);
  const middle = myers(middleA, middleB) ?? [
    ...middleA.map((line) => ["-", line] as const),
    ...middleB.map((line) => ["+", line] as const),
  ];
  const ops: Op[] = [
    ...a.slice(0, start).map((line) => [" ", line] as const),
    ...middle,
    ...a.slice(endA).map((line) => [" ", line] as const),
  ];
  const out = ["```diff", `--- ${name}`, `+++ ${name}`];
  let i = 0;
  let lineA = 1;
  let lineB = 1;
  while (i < ops.length) {
    if (ops[i]![0] === " ") {
      i++;
      lineA++;
      lineB++;
      continue;
    }
    // A hunk: back up for context, then run until `context * 2` unchanged lines in a row.
    const back = Math.min(context, i);
    let j = i - back;
    const hunkA = lineA - back;
    const hunkB = lineB - back;
    const lines: string[] = [];
    let countA = 0;
    let countB = 0;
    let quiet = 0;
    for (; j < ops.length && quiet < context * 2 + 1; j++) {
      const [kind, line] = ops[j]!;
      quiet = kind === " " ? quiet + 1 : 0;
      lines.push(kind + line);
      if (kind !== "+") countA++;
      if (kind !== "-") countB++;
    }
    const trailing = Math.max(0, quiet - context);
    lines.splice(lines.length - trailing, trailing);
    countA -= trailing;
    countB -= trailing;
    out.push(`@@ -${hunkA},${countA} +${hunkB},${countB} @@`, ...lines);
    lineA = hunkA + countA;
    lineB = hunkB + countB;
    i = j - trailing;
  }
  out.push("```");
  return out.join("\n");
}
