/**
 * Form-mode elicitation (`elicitation/create` with `requestedSchema`): the restricted JSON Schema subset,
 * checked and applied without I/O.
 *
 * - 2025-06-18: string, number/integer, boolean and single-select `enum` (+ optional `enumNames`);
 *   `default` only on booleans.
 * - 2025-11-25: adds `default` on every type (SEP-1034) and titled single-select (`oneOf` of
 *   `{const, title}`) and untitled/titled multi-select (`type: "array"`) enums (SEP-1330).
 */

import { LATEST_LEGACY_VERSION, revisionOf } from "../revisions/index.js";
import type { ElicitationRules } from "../revisions/revision.js";

/** The string formats a form may ask for. */
export type StringFormat = "email" | "uri" | "date" | "date-time";

/** What every property may carry for display. */
export type Labelled = { title?: string; description?: string };

/** A free-text field. `pattern` appears in the spec text, though not in the schema definitions. */
export type StringSchema = Labelled & {
  type: "string";
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: StringFormat;
  default?: string;
};
/** A number; `integer` rejects fractions. */
export type NumberSchema = Labelled & {
  type: "number" | "integer";
  minimum?: number;
  maximum?: number;
  default?: number;
};
/** A yes/no field; the only type with a `default` in 2025-06-18. */
export type BooleanSchema = Labelled & { type: "boolean"; default?: boolean };
/** One option of a titled enum. */
export type TitledOption = { const: string; title: string };
/** Single-select of bare values. */
export type UntitledSingleSelectEnumSchema = Labelled & { type: "string"; enum: string[]; default?: string };
/** Single-select with a title per option (since 2025-11-25). */
export type TitledSingleSelectEnumSchema = Labelled & {
  type: "string";
  oneOf: TitledOption[];
  default?: string;
};
/** Single-select with display names in the non-standard `enumNames` (deprecated by 2025-11-25). */
export type LegacyTitledEnumSchema = UntitledSingleSelectEnumSchema & { enumNames?: string[] };
/** What both multi-select forms share: a list of choices, bounded in length. */
export type MultiSelect = Labelled & {
  type: "array";
  minItems?: number;
  maxItems?: number;
  default?: string[];
};
/** Multi-select of bare values (since 2025-11-25). */
export type UntitledMultiSelectEnumSchema = MultiSelect & { items: { type: "string"; enum: string[] } };
/** Multi-select with a title per option (since 2025-11-25). */
export type TitledMultiSelectEnumSchema = MultiSelect & { items: { anyOf: TitledOption[] } };
export type SingleSelectEnumSchema = UntitledSingleSelectEnumSchema | TitledSingleSelectEnumSchema;
export type MultiSelectEnumSchema = UntitledMultiSelectEnumSchema | TitledMultiSelectEnumSchema;
export type EnumSchema = SingleSelectEnumSchema | MultiSelectEnumSchema | LegacyTitledEnumSchema;
/** Any property of a form: primitives only, no nesting. */
export type PrimitiveSchemaDefinition = StringSchema | NumberSchema | BooleanSchema | EnumSchema;
/** One choice of an enum property, as {@link enumOptions} lists it. */
export type EnumOption = { value: string; title?: string };

/** A form-mode `requestedSchema`: a flat object of primitive properties. */
export interface ElicitationSchema {
  $schema?: string;
  type: "object";
  properties: Record<string, PrimitiveSchemaDefinition>;
  required?: string[];
}

type Node = Record<string, unknown>;

const isNode = (v: unknown): v is Node => typeof v === "object" && v !== null && !Array.isArray(v);
const quote = (v: unknown): string => JSON.stringify(v);
const PRIMITIVES = "only string, number, integer, boolean and enums";
const FORMATS = ["email", "uri", "date", "date-time"];
/** Keywords that nest, compose or reference schemas: outside the flat subset wherever they appear. */
const FORBIDDEN = (
  "$ref $dynamicRef $defs definitions allOf anyOf not if then else properties patternProperties " +
  "additionalProperties unevaluatedProperties prefixItems contains dependentSchemas const"
).split(" ");

/** The rules of a revision from the revision table; absent or unknown means the newest. */
function rulesOf(version: string | undefined): ElicitationRules | undefined {
  const revision = version === undefined ? undefined : revisionOf(version);
  return revision ? revision.elicitation : LATEST_RULES;
}

const LATEST_RULES = revisionOf(LATEST_LEGACY_VERSION)!.elicitation!;

/**
 * What puts `schema` outside the restricted subset of `revision` (default: the newest, 2025-11-25).
 * An empty list means the schema is valid. Messages name the property, e.g.
 * `property "age": type "object" is not allowed (only string, number, integer, boolean and enums)`.
 */
export function requestedSchemaProblems(schema: unknown, revision?: string): string[] {
  const rules = rulesOf(revision);
  if (rules === undefined) return [`elicitation/create does not exist in revision ${revision}`];
  if (!isNode(schema)) return ["requestedSchema must be an object"];
  const out: string[] = [];
  if (schema.type !== "object") out.push(`requestedSchema: type must be "object", not ${quote(schema.type)}`);
  for (const key of [...FORBIDDEN, "oneOf", "items"]) {
    // SDKs generating schemas from validators add `additionalProperties: false`; it only restates the rule.
    if (key === "properties" || (key === "additionalProperties" && typeof schema[key] === "boolean"))
      continue;
    if (key in schema) out.push(`requestedSchema: keyword ${quote(key)} is not allowed`);
  }
  const properties = schema.properties;
  if (!isNode(properties)) out.push("requestedSchema: properties must be an object");
  else
    for (const [name, property] of Object.entries(properties))
      out.push(...propertyProblems(name, property, rules));
  const required = schema.required ?? [];
  if (!Array.isArray(required) || required.some((r) => typeof r !== "string")) {
    out.push("requestedSchema: required must be an array of property names");
  } else {
    for (const name of required as string[]) {
      if (!isNode(properties) || !Object.hasOwn(properties, name))
        out.push(`required ${quote(name)} is not a property`);
    }
  }
  return out;
}

function propertyProblems(name: string, s: unknown, rules: ElicitationRules): string[] {
  const at = `property ${quote(name)}`;
  if (!isNode(s)) return [`${at}: must be a schema object`];
  const out: string[] = [];
  const type = s.type;
  for (const key of FORBIDDEN) if (key in s) out.push(`${at}: keyword ${quote(key)} is not allowed`);
  if (type !== "array" && "items" in s)
    out.push(`${at}: keyword "items" is only allowed on multi-select enums`);
  for (const key of ["oneOf", "enum", "enumNames"]) {
    if (type !== "string" && key in s)
      out.push(`${at}: keyword ${quote(key)} is only allowed on string enums`);
  }
  if (type === "string" && ("enum" in s || "oneOf" in s)) out.push(...enumProblems(at, s, rules));
  else if (type === "string") out.push(...stringProblems(at, s));
  else if (type === "number" || type === "integer")
    out.push(...boundProblems(at, s, "minimum", "maximum", false));
  else if (type === "array") {
    if (!rules.multiSelect)
      return [...out, `${at}: multi-select enums (type "array") need revision 2025-11-25`];
    out.push(...multiSelectProblems(at, s));
  } else if (type !== "boolean") {
    const what = type === undefined ? "type is missing" : `type ${quote(type)} is not allowed`;
    return [...out, `${at}: ${what} (${PRIMITIVES})`];
  }
  for (const key of ["title", "description"]) {
    if (s[key] !== undefined && typeof s[key] !== "string") out.push(`${at}: ${key} must be a string`);
  }
  if (s.default !== undefined) out.push(...defaultProblems(at, s, rules, out.length === 0));
  return out;
}

/** A single-select string enum: `enum` (with optional `enumNames`) or, titled, `oneOf`. */
function enumProblems(at: string, s: Node, rules: ElicitationRules): string[] {
  if ("enum" in s && "oneOf" in s) return [`${at}: use either enum or oneOf, not both`];
  if ("oneOf" in s) {
    if (!rules.titledEnums) return [`${at}: titled enums (oneOf) need revision 2025-11-25`];
    return listProblems(at, "oneOf", s.oneOf, true);
  }
  const out = listProblems(at, "enum", s.enum);
  const names = s.enumNames;
  const fits = (n: unknown[]) => Array.isArray(s.enum) && n.length === s.enum.length;
  const ok =
    names === undefined || (Array.isArray(names) && fits(names) && names.every((n) => typeof n === "string"));
  if (!ok) out.push(`${at}: enumNames must be strings, one per enum value`);
  return out;
}

/** A free string: its format, length bounds and pattern. */
function stringProblems(at: string, s: Node): string[] {
  const out: string[] = [];
  if (s.format !== undefined && !FORMATS.includes(s.format as string)) {
    out.push(`${at}: format ${quote(s.format)} is not supported (only ${FORMATS.join(", ")})`);
  }
  out.push(...boundProblems(at, s, "minLength", "maxLength", true));
  if (s.pattern !== undefined && !(typeof s.pattern === "string" && regExp(s.pattern))) {
    out.push(`${at}: pattern must be a valid regular expression`);
  }
  return out;
}

/** A multi-select enum: `items` with `enum`, or with `anyOf` of `{const, title}`. */
function multiSelectProblems(at: string, s: Node): string[] {
  const out: string[] = [];
  const items = s.items;
  if (!isNode(items) || (!Array.isArray(items.enum) && !Array.isArray(items.anyOf))) {
    out.push(
      `${at}: arrays are only allowed as multi-select enums (items with enum, or anyOf of {const, title})`,
    );
  } else {
    for (const key of FORBIDDEN) {
      if (key !== "anyOf" && key in items) out.push(`${at}: keyword ${quote(key)} is not allowed in items`);
    }
    if ("enum" in items && "anyOf" in items) out.push(`${at}: items use either enum or anyOf, not both`);
    else if ("anyOf" in items) out.push(...listProblems(at, "items.anyOf", items.anyOf, true));
    else {
      out.push(...listProblems(at, "items.enum", items.enum));
      if (items.type !== "string") out.push(`${at}: items.type must be "string"`);
    }
  }
  out.push(...boundProblems(at, s, "minItems", "maxItems", true));
  return out;
}

/** A `default`: allowed where the revision allows it, and an answer the user could give. */
function defaultProblems(at: string, s: Node, rules: ElicitationRules, sound: boolean): string[] {
  if (rules.defaults === "booleans" && s.type !== "boolean") {
    return [`${at}: default is only allowed on booleans in revision 2025-06-18`];
  }
  if (!sound) return [];
  const problem = valueProblem(s, s.default);
  return problem ? [`${at}: default ${problem}`] : [];
}

/** A non-empty list of strings, or with `titled` of `{const, title}` strings. */
function listProblems(at: string, key: string, list: unknown, titled = false): string[] {
  const ok = (x: unknown) =>
    titled ? isNode(x) && typeof x.const === "string" && typeof x.title === "string" : typeof x === "string";
  if (Array.isArray(list) && list.length > 0 && list.every(ok)) return [];
  return [`${at}: ${key} must be a non-empty array of ${titled ? "{const, title} strings" : "strings"}`];
}

function boundProblems(at: string, s: Node, low: string, high: string, count: boolean): string[] {
  const out: string[] = [];
  for (const key of [low, high]) {
    const v = s[key];
    if (v === undefined) continue;
    const ok = typeof v === "number" && Number.isFinite(v) && (!count || (Number.isInteger(v) && v >= 0));
    if (!ok) out.push(`${at}: ${key} must be ${count ? "a non-negative integer" : "a number"}`);
  }
  if (out.length === 0 && (s[low] as number) > (s[high] as number))
    out.push(`${at}: ${low} is greater than ${high}`);
  return out;
}

function regExp(pattern: string): RegExp | undefined {
  try {
    return new RegExp(pattern, "u"); // JSON Schema patterns are ECMA-262, unanchored
  } catch {
    return undefined;
  }
}

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
function valueProblem(s: Node, v: unknown): string | undefined {
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
