/**
 * A small table-driven checker for config objects: each allowed key with the type of its value, an
 * unknown key answered with the closest allowed one ("did you mean"), a wrong type with the one expected.
 */

import { editDistance } from "../../util/edit-distance.js";
import { ConfigError, type ConfigLocation } from "./config-error.js";

/** What one key of a config object holds. */
export interface FieldRule {
  type: "string" | "boolean" | "number" | "strings" | "string map" | "choice" | "object";
  /** `"object"`: the keys it may have. */
  fields?: FieldTable;
  /** `"choice"`: the allowed values. */
  values?: readonly string[];
  /** Strings (and the items of `"strings"`) must not be empty. */
  nonEmpty?: boolean;
  /** Numbers must be finite and greater than 0. */
  positive?: boolean;
  /** How errors name what is expected, where the type says too little: `"an array of tool names"`. */
  expected?: string;
}

/** The allowed keys of one kind of config object. */
export type FieldTable = Readonly<Record<string, FieldRule>>;

/** Suggestions longer than this many edits away are no help. */
const MAX_EDITS = 3;

/**
 * The candidate `word` was probably meant to be, or undefined when none is close: the closest by
 * edit distance (case ignored) within a third of its length (at least 1, at most 3 edits), where an
 * `aliases` key (another tool's spelling, `environment` for `env`) counts as the candidate it names.
 */
export function didYouMean(
  word: string,
  candidates: readonly string[],
  aliases: Readonly<Record<string, string>> = {},
): string | undefined {
  const spellings: [string, string][] = candidates.map((candidate) => [candidate, candidate]);
  for (const [alias, meant] of Object.entries(aliases)) {
    if (candidates.includes(meant)) spellings.push([alias, meant]);
  }
  const limit = Math.min(MAX_EDITS, Math.max(1, Math.floor(word.length / 3)));
  let found: string | undefined;
  let distance = limit + 1;
  for (const [spelling, meant] of spellings) {
    const d = spelling === word ? 0 : editDistance(word.toLowerCase(), spelling.toLowerCase(), limit);
    if (d < distance) {
      distance = d;
      found = meant;
    }
  }
  return found;
}

/** How a value's type is named in errors. */
export function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  if (typeof value === "string") return value === "" ? "an empty string" : "a string";
  return `a ${typeof value}`;
}

/** Whether `value` is a plain object (not null, not an array). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function expectedOf(rule: FieldRule): string {
  if (rule.expected) return rule.expected;
  switch (rule.type) {
    case "string":
      return rule.nonEmpty ? "a non-empty string" : "a string";
    case "boolean":
      return "true or false";
    case "number":
      return rule.positive ? "a number greater than 0" : "a number";
    case "strings":
      return "an array of strings";
    case "string map":
      return "an object whose values are strings";
    case "choice":
      return `one of ${(rule.values ?? []).map((v) => JSON.stringify(v)).join(", ")}`;
    case "object":
      return "an object";
  }
}

const isString = (value: unknown, nonEmpty?: boolean) =>
  typeof value === "string" && (!nonEmpty || value.length > 0);

/** Throws a `ConfigError` if `value` (the key `key` at `at.path`) is not what `rule` says. */
export function checkField(key: string, value: unknown, rule: FieldRule, at: ConfigLocation): void {
  const path = [...(at.path ?? []), key];
  const wrong = () =>
    new ConfigError(`"${key}" must be ${expectedOf(rule)}, not ${describeType(value)}`, { ...at, path });
  switch (rule.type) {
    case "string":
      if (!isString(value, rule.nonEmpty)) throw wrong();
      return;
    case "boolean":
      if (typeof value !== "boolean") throw wrong();
      return;
    case "number":
      if (typeof value !== "number" || !Number.isFinite(value) || (rule.positive && value <= 0)) {
        throw typeof value === "number"
          ? new ConfigError(`"${key}" must be ${expectedOf(rule)}, not ${value}`, { ...at, path })
          : wrong();
      }
      return;
    case "choice": {
      const values = rule.values ?? [];
      if (typeof value === "string" && values.includes(value)) return;
      if (typeof value !== "string") throw wrong();
      throw new ConfigError(
        `"${key}" must be ${expectedOf(rule)}, not ${JSON.stringify(value)}`,
        { ...at, path },
        didYouMean(value, values),
      );
    }
    case "strings": {
      if (!Array.isArray(value)) throw wrong();
      value.forEach((item, index) => {
        if (!isString(item, rule.nonEmpty)) {
          throw new ConfigError(
            `item ${index} of "${key}" must be ${rule.nonEmpty ? "a non-empty string" : "a string"}, not ${describeType(item)}`,
            { ...at, path: [...path, index] },
          );
        }
      });
      return;
    }
    case "object": {
      if (!isObject(value)) throw wrong();
      const fields = rule.fields ?? {};
      for (const [name, item] of Object.entries(value)) {
        if (item === undefined) continue;
        if (!Object.hasOwn(fields, name)) {
          throw new ConfigError(
            `unknown key "${name}" in "${key}"`,
            { ...at, path: [...path, name] },
            didYouMean(name, Object.keys(fields)),
          );
        }
        checkField(name, item, fields[name]!, { ...at, path });
      }
      return;
    }
    case "string map": {
      if (!isObject(value)) throw wrong();
      for (const [name, item] of Object.entries(value)) {
        if (typeof item !== "string") {
          throw new ConfigError(`"${name}" in "${key}" must be a string, not ${describeType(item)}`, {
            ...at,
            path: [...path, name],
          });
        }
      }
      return;
    }
  }
}
