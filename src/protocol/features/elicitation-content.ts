/**
 * An accepted form's answer: its defaults filled in, its values checked against the schema, and the
 * options of an enum property listed for a UI.
 */

import {
  type ElicitationSchema,
  type EnumOption,
  isNode,
  type Node,
  type PrimitiveSchemaDefinition,
  quote,
  regExp,
} from "./elicitation-schema.js";

/**
 * `content` with every property's `default` filled in where the content lacks a value (SEP-1034: clients
 * pre-fill defaults). Given values are never overwritten; the input is not modified.
 */
export function applyDefaults(
  schema: ElicitationSchema,
  content: Record<string, unknown> | undefined,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...content };
  for (const [name, property] of Object.entries(schema.properties)) {
    const value = property.default;
    if (out[name] === undefined && value !== undefined) out[name] = Array.isArray(value) ? [...value] : value;
  }
  return out;
}

/**
 * What is wrong with the `content` of an accepted `ElicitResult` for `schema`: undeclared or missing
 * required fields, and values that do not fit their property. Empty list = valid. Messages name the field,
 * e.g. `field "age": must be an integer`. An absent content counts as `{}`.
 */
export function contentProblems(schema: ElicitationSchema, content: unknown): string[] {
  const given = content === undefined ? {} : content;
  if (!isNode(given)) return ["content must be an object"];
  const out: string[] = [];
  for (const name of Object.keys(given)) {
    if (!Object.hasOwn(schema.properties, name))
      out.push(`field ${quote(name)} is not in the requested schema`);
  }
  for (const name of schema.required ?? []) {
    if (given[name] === undefined) out.push(`field ${quote(name)} is required`);
  }
  for (const [name, property] of Object.entries(schema.properties)) {
    const value = given[name];
    const problem = value === undefined ? undefined : valueProblem(property as unknown as Node, value);
    if (problem) out.push(`field ${quote(name)}: ${problem}`);
  }
  return out;
}

/** Why `v` is not a valid answer for property `s`, as a phrase ("must be a string"), or undefined. */
export function valueProblem(s: Node, v: unknown): string | undefined {
  const options = optionsOf(s)?.map((o) => o.value);
  if (s.type === "array") {
    if (!Array.isArray(v) || v.some((x) => typeof x !== "string")) return "must be an array of strings";
    const bad = v.find((x) => !options?.includes(x));
    if (bad !== undefined) return `${quote(bad)} is not one of the options`;
    if (typeof s.minItems === "number" && v.length < s.minItems)
      return `must have at least ${s.minItems} items`;
    if (typeof s.maxItems === "number" && v.length > s.maxItems)
      return `must have at most ${s.maxItems} items`;
    return undefined;
  }
  if (s.type === "boolean") return typeof v === "boolean" ? undefined : "must be a boolean";
  if (s.type === "number" || s.type === "integer") {
    if (typeof v !== "number" || !Number.isFinite(v)) return "must be a number";
    if (s.type === "integer" && !Number.isInteger(v)) return "must be an integer";
    if (typeof s.minimum === "number" && v < s.minimum) return `must be at least ${s.minimum}`;
    if (typeof s.maximum === "number" && v > s.maximum) return `must be at most ${s.maximum}`;
    return undefined;
  }
  if (typeof v !== "string") return "must be a string";
  if (options) return options.includes(v) ? undefined : `${quote(v)} is not one of the options`;
  const length = [...v].length; // JSON Schema counts code points, not UTF-16 units
  if (typeof s.minLength === "number" && length < s.minLength)
    return `must be at least ${s.minLength} characters`;
  if (typeof s.maxLength === "number" && length > s.maxLength)
    return `must be at most ${s.maxLength} characters`;
  const check = typeof s.format === "string" ? FORMAT_CHECKS[s.format] : undefined;
  if (check && !check(v)) return `is not a valid ${s.format}`;
  const pattern = typeof s.pattern === "string" ? regExp(s.pattern) : undefined;
  if (pattern && !pattern.test(v)) return `does not match pattern ${s.pattern}`;
  return undefined;
}

/** Real calendar date (rejects 2025-02-30). */
function isDate(y: string, m: string, d: string): boolean {
  const date = new Date(Date.UTC(+y, +m - 1, +d));
  return date.getUTCFullYear() === +y && date.getUTCMonth() === +m - 1 && date.getUTCDate() === +d;
}

/** Simple, lenient checks: they catch wrong kinds of values, not every RFC corner. */
const FORMAT_CHECKS: Record<string, (v: string) => boolean> = {
  email: (v) => /^[^\s@]+@[^\s@]+$/.test(v),
  uri: (v) => /^[A-Za-z][A-Za-z0-9+.-]*:\S*$/.test(v), // absolute: a scheme, no whitespace
  date: (v) => {
    const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
    return m !== null && isDate(m[1]!, m[2]!, m[3]!);
  },
  "date-time": (v) => {
    const m = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-](\d{2}):(\d{2}))$/.exec(
      v,
    );
    if (m === null || !isDate(m[1]!, m[2]!, m[3]!)) return false;
    // Seconds may be 60 (leap second, RFC 3339); offsets are at most 23:59.
    return +m[4]! < 24 && +m[5]! < 60 && +m[6]! <= 60 && +(m[9] ?? 0) < 24 && +(m[10] ?? 0) < 60;
  },
};

/**
 * The options of an enum property of any flavour (single or multi-select; untitled, titled via
 * `oneOf`/`items.anyOf`, or legacy `enumNames`), for building UIs; `undefined` if it is not an enum.
 */
export function enumOptions(
  property: PrimitiveSchemaDefinition | Record<string, unknown>,
): EnumOption[] | undefined {
  return optionsOf(property as Node);
}

function optionsOf(s: Node): EnumOption[] | undefined {
  const source = s.type === "array" ? s.items : s;
  if (!isNode(source)) return undefined;
  const titled = s.type === "array" ? source.anyOf : source.oneOf;
  if (Array.isArray(titled)) {
    return titled
      .filter(isNode)
      .map((o) =>
        typeof o.title === "string" ? { value: String(o.const), title: o.title } : { value: String(o.const) },
      );
  }
  if (!Array.isArray(source.enum)) return undefined;
  const names = s.type === "array" ? undefined : s.enumNames;
  return source.enum.map((value, i) => {
    const title = Array.isArray(names) ? names[i] : undefined;
    return typeof title === "string" ? { value: String(value), title } : { value: String(value) };
  });
}
