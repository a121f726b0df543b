/**
 * Elicitation on the command line: on a terminal each field of the form is asked in turn (by type,
 * with enum choices and defaults); otherwise the request is declined with a note on stderr.
 */
import { createInterface, type Interface } from "node:readline";
import type { ElicitationHandler } from "../../client/features/features.js";
import {
  contentProblems,
  type ElicitationSchema,
  type EnumOption,
  enumOptions,
  type PrimitiveSchemaDefinition,
} from "../../protocol/features/elicitation.js";
import type { ElicitResult } from "../../protocol/types/client-features.js";
import { peerText } from "./peer-text.js";
import { clearStatus, note } from "./status.js";

type Answer = string | number | boolean | string[];

/** Thrown inside a form when the user cancels (Ctrl-C, Ctrl-D) or the server gives up. */
class Cancelled extends Error {}

/**
 * The lines typed on the terminal, in order: lines typed ahead (or pasted) wait for their question
 * instead of being lost. Ctrl-C, Ctrl-D and `signal` cancel.
 */
class Lines {
  private readonly rl: Interface;
  private readonly typed: string[] = [];
  private waiting: { resolve: (line: string) => void; reject: (error: Error) => void } | undefined;
  private cancelled = false;

  constructor(signal: AbortSignal) {
    this.rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
    this.rl.on("line", (line) => {
      if (this.waiting) this.settle((w) => w.resolve(line));
      else this.typed.push(line);
    });
    const cancel = () => this.cancel();
    this.rl.on("close", cancel);
    this.rl.on("SIGINT", cancel);
    signal.addEventListener("abort", cancel, { once: true });
  }

  private settle(action: (waiting: NonNullable<Lines["waiting"]>) => void): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    if (waiting) action(waiting);
  }

  private cancel(): void {
    this.cancelled = true;
    this.settle((w) => w.reject(new Cancelled()));
  }

  /** Shows `lines` (all but the last as text, the last as the prompt) and reads one answer. */
  ask(lines: string[]): Promise<string> {
    if (this.cancelled) return Promise.reject(new Cancelled());
    const prompt = lines.at(-1) ?? "";
    for (const line of lines.slice(0, -1)) process.stderr.write(`${line}\n`);
    this.rl.setPrompt(prompt);
    this.rl.prompt();
    const ahead = this.typed.shift();
    if (ahead !== undefined) {
      process.stderr.write("\n"); // the terminal has echoed it already
      return Promise.resolve(ahead.trim());
    }
    return new Promise<string>((resolve, reject) => {
      this.waiting = { resolve, reject };
    }).then((line) => line.trim());
  }

  close(): void {
    this.rl.removeAllListeners("close");
    this.rl.close();
  }
}

/** Maps `2`, a value or a title (any case) to an option's value; anything else is returned as is. */
function pick(options: EnumOption[], text: string): string {
  if (/^\d+$/.test(text)) {
    const chosen = options[Number(text) - 1];
    if (chosen) return chosen.value;
  }
  const lower = text.toLowerCase();
  return (
    options.find((o) => o.value === text)?.value ??
    options.find((o) => o.value.toLowerCase() === lower || o.title?.toLowerCase() === lower)?.value ??
    text
  );
}

/** The typed answer for a field, or a problem to show before asking again. */
function parse(property: PrimitiveSchemaDefinition, text: string): Answer | { problem: string } {
  const options = enumOptions(property);
  if (property.type === "array") return text.split(",").map((part) => pick(options ?? [], part.trim()));
  if (options) return pick(options, text);
  if (property.type === "boolean") {
    if (/^(y|yes|true|1)$/i.test(text)) return true;
    if (/^(n|no|false|0)$/i.test(text)) return false;
    return { problem: "answer y or n" };
  }
  if (property.type === "number" || property.type === "integer") {
    const value = Number(text);
    return Number.isNaN(value) ? { problem: "must be a number" } : value;
  }
  return text;
}

const shownDefault = (value: unknown): string => {
  if (value === undefined) return "";
  if (typeof value === "boolean") return ` [${value ? "y" : "n"}]`;
  return ` [${peerText(Array.isArray(value) ? value.join(",") : String(value), "message")}]`;
};

/**
 * The question for a field: its name, what it is, its choices and its default; the last line
 * prompts. Every part the server chose is inert.
 */
function question(name: string, property: PrimitiveSchemaDefinition, required: boolean): string[] {
  const p = property as Record<string, unknown>;
  const options = enumOptions(property);
  const kind: string[] = [];
  if (options)
    kind.push(property.type === "array" ? "numbers or values, comma-separated" : "number or value");
  else kind.push(property.type === "boolean" ? "y/n" : peerText(property.type, "name"));
  if (typeof p.format === "string") kind.push(peerText(p.format, "name"));
  const bound = (value: unknown) => (typeof value === "number" ? value : "");
  if (typeof p.minimum === "number" || typeof p.maximum === "number") {
    kind.push(`${bound(p.minimum)}..${bound(p.maximum)}`);
  }
  if (!required) kind.push("optional");
  const title =
    typeof property.title === "string" && property.title !== name
      ? ` "${peerText(property.title, "name")}"`
      : "";
  const description = property.description ? ` — ${peerText(property.description, "message")}` : "";
  const lines = [`  ${peerText(name, "name")}${title}${description}`];
  options?.forEach((o, i) => {
    const value = peerText(o.value, "name");
    lines.push(`      ${i + 1}) ${o.title ? `${peerText(o.title, "name")} (${value})` : value}`);
  });
  lines.push(`    (${kind.join(", ")})${shownDefault(property.default)}: `);
  return lines;
}

/** Fills in the form field by field; an empty answer keeps the default or skips an optional field. */
async function fillForm(lines: Lines, schema: ElicitationSchema): Promise<Record<string, Answer>> {
  const content: Record<string, Answer> = {};
  const required = new Set(schema.required ?? []);
  for (const [name, property] of Object.entries(schema.properties)) {
    let asking = question(name, property, required.has(name));
    for (;;) {
      const text = await lines.ask(asking);
      asking = asking.slice(-1); // asked again: the prompt line only
      if (text === "") {
        if (property.default !== undefined || !required.has(name)) break;
        process.stderr.write("    this field is required\n");
        continue;
      }
      const value = parse(property, text);
      const problem =
        typeof value === "object" && !Array.isArray(value)
          ? value.problem
          : contentProblems({ type: "object", properties: { [name]: property } }, { [name]: value })[0];
      if (problem === undefined) {
        content[name] = value as Answer;
        break;
      }
      process.stderr.write(`    ${peerText(problem.replace(/^field "[^"]*": /, ""), "message")}\n`);
    }
  }
  return content;
}

async function interactive(
  message: string,
  schema: ElicitationSchema,
  signal: AbortSignal,
): Promise<ElicitResult> {
  clearStatus();
  const lines = new Lines(signal);
  try {
    process.stderr.write(`\nThe server asks: ${peerText(message, "text")}\n`);
    const answer = await lines.ask(["Answer? [Y]es / [n]o, decline / [c]ancel: "]);
    if (/^(n|no)$/i.test(answer)) return { action: "decline" };
    if (/^(c|cancel)$/i.test(answer)) return { action: "cancel" };
    const content = await fillForm(lines, schema);
    process.stderr.write("\n");
    return { action: "accept", content };
  } catch (error) {
    if (!(error instanceof Cancelled)) throw error;
    process.stderr.write("\n(cancelled)\n");
    return { action: "cancel" };
  } finally {
    lines.close();
  }
}

/** One form at a time, in the order the server asked. */
let queue: Promise<unknown> = Promise.resolve();

/**
 * The client's elicitation handler. `canAsk`: whether a person can answer (stdin and stderr are
 * terminals); without one every request is declined and a note on stderr says so.
 */
export function elicitationHandler(canAsk: boolean): ElicitationHandler {
  return (params, ctx) => {
    if (params.mode === "url" || !canAsk) {
      const why = canAsk ? "mcpkit does not open URLs" : "stdin is not a terminal, so no one can answer";
      note(`mcpkit: the server asked for input ("${peerText(params.message, "message")}"); declined: ${why}`);
      return { action: "decline" };
    }
    const schema = params.requestedSchema as unknown as ElicitationSchema;
    const next = queue.then(() => interactive(params.message, schema, ctx.signal));
    queue = next.catch(() => {});
    return next;
  };
}
