/**
 * A checker for the JSON Schemas most tools have (types, properties, required, enums, bounds,
 * patterns, items) that gives Ajv's verdict and Ajv's first error, so that a server whose tools
 * have only such schemas never loads Ajv (about 1.8 MiB of heap and its start-up time). It follows
 * the code Ajv 2020 generates with `strict: false, allErrors: false, validateFormats: false`: the
 * type first unless the keywords of that type's group check it, then `const` and `enum`, then the
 * number, string, array and object groups in Ajv's keyword order. Any other schema, and any
 * malformed keyword (which Ajv rejects when compiling), is left to Ajv.
 */
import type { JsonSchema } from "../types/tools.js";

/** The first error, as Ajv reports it. */
interface SchemaError {
  instancePath: string;
  message: string;
  params: Record<string, unknown>;
}

type Group = "number" | "string" | "array" | "object";

/** Checks a value; an error's `instancePath` is relative to the value. */
type Check = (value: unknown) => SchemaError | undefined;

/** The groups and their keywords among those checked here, in Ajv's order (`format` checks nothing). */
const GROUPS: [Group, string[]][] = [
  ["number", ["maximum", "minimum", "exclusiveMaximum", "exclusiveMinimum", "format"]],
  ["string", ["maxLength", "minLength", "pattern", "format"]],
  ["array", ["maxItems", "minItems", "items"]],
  ["object", ["required", "additionalProperties", "properties"]],
];

const TYPES = new Set(["string", "number", "integer", "boolean", "null", "object", "array"]);

const LIMITS: [keyword: string, fails: (value: number, limit: number) => boolean, ok: string][] = [
  ["maximum", (value, limit) => value > limit, "<="],
  ["minimum", (value, limit) => value < limit, ">="],
  ["exclusiveMaximum", (value, limit) => value >= limit, "<"],
  ["exclusiveMinimum", (value, limit) => value <= limit, ">"],
];

/** Checkers by schema, built once: tools with equal schemas share their (interned) schema. */
const checkers = new WeakMap<JsonSchema, Check | null>();

/** A checker for `schema`, or `undefined` when Ajv must check it. */
export function simpleChecker(schema: JsonSchema): Check | undefined {
  let checker = checkers.get(schema);
  if (checker === undefined) {
    checker = supported(schema) ? compile(schema) : null;
    checkers.set(schema, checker);
  }
  return checker ?? undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const isUniqueStrings = (value: unknown, minItems: number): boolean =>
  Array.isArray(value) &&
  value.length >= minItems &&
  value.every((item) => typeof item === "string") &&
  new Set(value).size === value.length;

/** Whether every keyword is one checked here (or an annotation) and well formed. */
function supported(schema: unknown): boolean {
  if (!isObject(schema)) return false;
  for (const [keyword, value] of Object.entries(schema)) {
    switch (keyword) {
      case "type":
        if (typeof value === "string" ? !TYPES.has(value) : !isUniqueStrings(value, 1)) return false;
        if (Array.isArray(value) && !value.every((type) => TYPES.has(type))) return false;
        break;
      case "properties":
        if (!isObject(value) || Object.hasOwn(value, "__proto__")) return false;
        if (!Object.values(value).every((property) => supported(property))) return false;
        break;
      case "required":
        if (!isUniqueStrings(value, 0)) return false;
        break;
      case "additionalProperties":
      case "deprecated":
      case "readOnly":
      case "writeOnly":
        if (typeof value !== "boolean") return false;
        break;
      case "items":
        if (!supported(value)) return false;
        break;
      case "enum":
        if (!Array.isArray(value) || value.length === 0) return false;
        break;
      case "maximum":
      case "minimum":
      case "exclusiveMaximum":
      case "exclusiveMinimum":
        if (typeof value !== "number") return false;
        break;
      case "maxLength":
      case "minLength":
      case "maxItems":
      case "minItems":
        if (!Number.isInteger(value) || (value as number) < 0) return false;
        break;
      case "pattern":
        if (typeof value !== "string" || !compiles(value)) return false;
        break;
      case "title":
      case "description":
      case "$comment":
      case "format":
        if (typeof value !== "string") return false;
        break;
      case "examples":
        if (!Array.isArray(value)) return false;
        break;
      case "const":
      case "default":
        break;
      default:
        if (!keyword.startsWith("x-")) return false;
    }
  }
  return true;
}

function compiles(pattern: string): boolean {
  try {
    new RegExp(pattern, "u");
    return true;
  } catch {
    return false;
  }
}

function hasType(type: string, value: unknown): boolean {
  switch (type) {
    case "null":
      return value === null;
    case "array":
      return Array.isArray(value);
    case "object":
      return isObject(value);
    case "integer":
      return typeof value === "number" && !(value % 1) && !Number.isNaN(value);
    default:
      return typeof value === type;
  }
}

const error = (message: string, params: Record<string, unknown>): SchemaError => ({
  instancePath: "",
  message,
  params,
});

/** The error of a value inside another, with its path made relative to the outer one. */
function within(segment: string, inner: SchemaError): SchemaError {
  inner.instancePath = `/${segment}${inner.instancePath}`;
  return inner;
}

/** A check of a well-formed schema, following the order of the code Ajv generates for it. */
function compile(schema: JsonSchema): Check {
  const types = schema.type === undefined ? [] : ([] as string[]).concat(schema.type as string | string[]);
  const groups = GROUPS.filter(([, keywords]) =>
    keywords.some((keyword) => schema[keyword] !== undefined),
  ).map(([group]) => [group, compileGroup(group, schema)] as const);
  // Ajv leaves the check of a single type to its group, when the schema has keywords of that group.
  const typeInGroup =
    types.length === 1 && groups.some(([group]) => group === types[0]) ? types[0] : undefined;
  const typeFirst = types.length > 0 && typeInGroup === undefined;
  const typeError = () => error(`must be ${String(schema.type)}`, { type: schema.type });
  const allowed = schema.const;
  const allowedValues = schema.enum as unknown[] | undefined;
  return (value) => {
    if (typeFirst && !types.some((type) => hasType(type, value))) return typeError();
    if (allowed !== undefined && !equal(value, allowed)) {
      return error("must be equal to constant", { allowedValue: allowed });
    }
    if (allowedValues !== undefined && !allowedValues.some((one) => equal(value, one))) {
      return error("must be equal to one of the allowed values", { allowedValues });
    }
    for (const [group, check] of groups) {
      if (hasType(group, value)) {
        const found = check(value);
        if (found) return found;
      } else if (group === typeInGroup) {
        return typeError();
      }
    }
    return undefined;
  };
}

/** The check of each group of keywords, compiled from the schema. */
const GROUP_COMPILERS: Record<Group, (schema: JsonSchema) => Check> = {
  number: compileNumber,
  string: compileString,
  array: compileArray,
  object: compileObject,
};

function compileGroup(group: Group, schema: JsonSchema): Check {
  return GROUP_COMPILERS[group](schema);
}

function compileNumber(schema: JsonSchema): Check {
  const limits = LIMITS.filter(([keyword]) => schema[keyword] !== undefined).map(
    ([keyword, fails, ok]) => [schema[keyword] as number, fails, ok] as const,
  );
  return (value) => {
    for (const [limit, fails, ok] of limits) {
      if (fails(value as number, limit)) return error(`must be ${ok} ${limit}`, { comparison: ok, limit });
    }
    return undefined;
  };
}

function compileString(schema: JsonSchema): Check {
  const { maxLength, minLength, pattern } = schema as {
    maxLength?: number;
    minLength?: number;
    pattern?: string;
  };
  const regExp = pattern === undefined ? undefined : new RegExp(pattern, "u");
  const counts = maxLength !== undefined || minLength !== undefined;
  return (value) => {
    const length = counts ? codePoints(value as string) : 0;
    if (maxLength !== undefined && length > maxLength) {
      return error(`must NOT have more than ${maxLength} characters`, { limit: maxLength });
    }
    if (minLength !== undefined && length < minLength) {
      return error(`must NOT have fewer than ${minLength} characters`, { limit: minLength });
    }
    if (regExp && !regExp.test(value as string)) {
      return error(`must match pattern "${pattern}"`, { pattern });
    }
    return undefined;
  };
}

function compileArray(schema: JsonSchema): Check {
  const { maxItems, minItems } = schema as { maxItems?: number; minItems?: number };
  const items = schema.items === undefined ? undefined : compile(schema.items as JsonSchema);
  return (value) => {
    const array = value as unknown[];
    if (maxItems !== undefined && array.length > maxItems) {
      return error(`must NOT have more than ${maxItems} items`, { limit: maxItems });
    }
    if (minItems !== undefined && array.length < minItems) {
      return error(`must NOT have fewer than ${minItems} items`, { limit: minItems });
    }
    if (items) {
      for (let i = 0; i < array.length; i++) {
        const found = items(array[i]);
        if (found) return within(String(i), found);
      }
    }
    return undefined;
  };
}

function compileObject(schema: JsonSchema): Check {
  const required = (schema.required ?? []) as string[];
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const known = schema.additionalProperties === false ? new Set(Object.keys(properties)) : undefined;
  const checks = Object.entries(properties).map(
    ([name, property]) => [name, pointerSegment(name), compile(property)] as const,
  );
  return (value) => {
    const object = value as Record<string, unknown>;
    for (const name of required) {
      if (object[name] === undefined) {
        return error(`must have required property '${name}'`, { missingProperty: name });
      }
    }
    if (known) {
      for (const key in object) {
        if (!known.has(key)) return error("must NOT have additional properties", { additionalProperty: key });
      }
    }
    for (const [name, segment, check] of checks) {
      if (object[name] === undefined) continue;
      const found = check(object[name]);
      if (found) return within(segment, found);
    }
    return undefined;
  };
}

/** A JSON Pointer segment. */
const pointerSegment = (name: string) => name.replaceAll("~", "~0").replaceAll("/", "~1");

/** A string's length in code points, as `minLength` and `maxLength` count it. */
function codePoints(text: string): number {
  let length = 0;
  for (let i = 0; i < text.length; i++) {
    length++;
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      if ((text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i++;
    }
  }
  return length;
}

/** Equality of JSON values, as Ajv's `const` and `enum` compare them. */
function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((item, i) => equal(item, other[i]));
  }
  const keys = Object.keys(a);
  const other = b as Record<string, unknown>;
  return (
    keys.length === Object.keys(other).length &&
    keys.every((key) => Object.hasOwn(other, key) && equal((a as Record<string, unknown>)[key], other[key]))
  );
}
