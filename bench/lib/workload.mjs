/**
 * What every implementation serves, so that all of them do the same work: an `echo` tool, a `big`
 * tool answering a 5 MiB text, a `stats` tool through which the server reports its own CPU time and
 * memory, and optionally N filler tools for the `tools/list` scenario.
 */

export const ECHO_MESSAGE = "hello";

export const ECHO_DESCRIPTION = "Echoes the message back";
export const BIG_DESCRIPTION = "Answers a 5 MiB text";
export const STATS_DESCRIPTION =
  "Reports the server process's CPU time and memory (benchmark instrumentation)";

/** Size of the `big` tool's text, in characters (all ASCII, so also bytes before JSON escaping). */
export const BIG_SIZE = 5 * 1024 * 1024;

let big;

/**
 * The `big` tool's text: lines of log-like ASCII with quotes, a tab and a newline on every line, so
 * JSON serialization has escaping to do, as it would with real file contents. Built once, on first use.
 */
export function bigText() {
  if (big !== undefined) return big;
  const lines = [];
  let size = 0;
  for (let i = 0; size < BIG_SIZE; i++) {
    const line = `${String(i).padStart(7, "0")} INFO worker[${i % 16}] handled "GET /items/${i * 7919}"\tin ${i % 97} ms\n`;
    lines.push(line);
    size += line.length;
  }
  big = lines.join("").slice(0, BIG_SIZE);
  return big;
}

/** The name of the i-th filler tool; names sort in registration order. */
export const fillerName = (i) => `tool_${String(i).padStart(5, "0")}`;

export const fillerDescription = (i) =>
  `Filler tool number ${i}: takes a message and returns it unchanged, for the tools/list benchmark`;

/**
 * The JSON Schema that zod v4 exports for `z.object({ message: z.string() })`: what the floor stores
 * for each tool, so its `tools/list` answer has the same size as the libraries'.
 */
export const messageJsonSchema = () => ({
  type: "object",
  properties: { message: { type: "string" } },
  required: ["message"],
  additionalProperties: false,
});

export const statsJsonSchema = () => ({
  type: "object",
  properties: { gc: { type: "boolean" } },
  additionalProperties: false,
});
