/**
 * Checks a form-mode `requestedSchema` against the subset of a revision (the revision table's
 * elicitation rules): what a server may ask and a client accepts to show.
 */

import { LATEST_LEGACY_VERSION, revisionOf } from "../revisions/index.js";
import type { ElicitationRules } from "../revisions/revision.js";
import { valueProblem } from "./elicitation-content.js";
import { isNode, type Node, quote, regExp } from "./elicitation-schema.js";

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
