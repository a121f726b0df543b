import type { JsonSchema } from "../../protocol/types/tools.js";
import { inlined, isNode, mapChildren, type Node, words } from "./schema-inline.js";

/** Whose function-calling API a schema is prepared for. */
export type LlmProvider = "openai" | "anthropic" | "gemini" | "generic";

export interface LlmSchemaOptions {
  /**
   * OpenAI only: make the schema fit strict mode (`strict: true`, Structured Outputs). Every object
   * gets `additionalProperties: false` and lists every property in `required`; a property that was
   * optional becomes nullable, so the model sends `null` for it: pass what the model sends through
   * `argumentsFromStrict(args, originalSchema)` before calling the tool. A schema strict mode
   * cannot express (a value of any type, an open map) throws a `TypeError` naming where: use that
   * tool without `strict`.
   */
  strict?: boolean;
  /** How many `$ref`s may be expanded inside one another along one path; default 8. */
  maxRefDepth?: number;
}

/** Keywords about identity and reuse, which mean nothing once `$ref`s are inlined. All providers. */
const META = ["$schema", "$id", "$anchor", "$dynamicAnchor", "$dynamicRef", "$comment", "$vocabulary"];
/** OpenAI strict mode rejects these (platform.openai.com/docs/guides/structured-outputs, "supported schemas"). */
const OPENAI_STRICT_UNSUPPORTED = words(`
  allOf not if then else dependentRequired dependentSchemas patternProperties
  unevaluatedProperties propertyNames minProperties maxProperties unevaluatedItems contains
  minContains maxContains uniqueItems minLength maxLength default examples prefixItems
  additionalItems
`);
const OPENAI_STRICT_FORMATS = words(`
  date-time time date duration email hostname ipv4 ipv6 uuid
`);

/**
 * Gemini's `parameters` take a subset of the OpenAPI 3.0 Schema object (ai.google.dev/api/caching#Schema)
 * and reject any other field ("Unknown name … Cannot find field"): `$schema`, `additionalProperties`,
 * `$ref`, `const`, `exclusiveMinimum`, `propertyNames`, `oneOf`, `allOf`, `not`, `examples`, `title`…
 * Kept: the fields every Gemini API version has accepted. Dropped too, to be safe, though newer
 * versions document them: `default`, `example`, `pattern`, `minLength`, `maxLength`, `minProperties`,
 * `maxProperties`, `title`.
 */
const GEMINI_KEYS = new Set(
  words(
    `type format description nullable enum items properties required anyOf minItems maxItems minimum maximum`,
  ),
);
/** The only `format`s Gemini accepts, per type; any other is refused. */
const GEMINI_FORMATS: Record<string, string[]> = {
  string: ["enum", "date-time"],
  number: ["float", "double"],
  integer: ["int32", "int64"],
};

/** Every property of `schemas`, the first definition of each winning. */
function allProperties(schemas: Node[]): Node {
  const properties: Node = {};
  for (const schema of schemas) {
    if (isNode(schema.properties))
      for (const [k, v] of Object.entries(schema.properties)) properties[k] ??= v;
  }
  return properties;
}

const requiredOf = (schema: Node): string[] => (Array.isArray(schema.required) ? schema.required : []);

/** `allOf` as one schema: properties merged, `required` united, other keywords from the first that has them. */
function mergeAll(schemas: Node[]): Node {
  const { properties: _p, required: _r, ...out } = Object.assign({}, ...[...schemas].reverse()) as Node;
  const properties = allProperties(schemas);
  const required = [...new Set(schemas.flatMap(requiredOf))];
  if (Object.keys(properties).length > 0) out.properties = properties;
  if (required.length > 0) out.required = required;
  return out;
}

/** `anyOf`/`oneOf` of objects as one object: every property, required only if every branch requires it. */
function mergeUnion(base: Node, branches: Node[]): Node {
  const properties = allProperties([base, ...branches]);
  const inAll = Object.keys(properties).filter((name) => branches.every((b) => requiredOf(b).includes(name)));
  return { ...base, properties, required: [...new Set([...requiredOf(base), ...inAll])] };
}

/**
 * Every provider wants `type: "object"` at the root, and OpenAI and Anthropic refuse `anyOf`,
 * `oneOf`, `allOf`, `not`, `enum` there ("input_schema does not support oneOf, allOf, or anyOf at
 * the top level"): they are folded into one object schema, or dropped when they only constrain.
 */
function objectRoot(schema: Node): Node {
  let out: Node = { ...schema };
  for (const key of ["allOf", "anyOf", "oneOf"]) {
    const branches = Array.isArray(out[key]) ? (out[key] as unknown[]).filter(isNode) : [];
    delete out[key];
    if (branches.length === 0) continue;
    out = key === "allOf" ? mergeAll([out, ...branches]) : mergeUnion(out, branches);
  }
  for (const key of ["not", "if", "then", "else", "enum", "const"]) delete out[key];
  out.type = "object";
  if (!isNode(out.properties)) out.properties = {};
  return out;
}

const typesOf = (node: Node): unknown[] => (Array.isArray(node.type) ? node.type : [node.type]);

/** Rules every provider needs; the only ones for `"generic"`. */
function common(node: Node): Node {
  const out: Node = { ...node };
  for (const key of META) delete out[key];
  // OpenAI: "array schema missing items"; Gemini: "items: missing field".
  if (typesOf(out).includes("array") && out.items === undefined) out.items = {};
  // A name listed twice is an error in 2020-12.
  if (Array.isArray(out.required)) out.required = [...new Set(out.required)];
  return out;
}

/** `oneOf` as `anyOf`, `allOf` merged, tuples as arrays: for providers without them. */
function simplify(node: Node): Node {
  let out: Node = { ...node };
  if (Array.isArray(out.oneOf)) {
    out.anyOf = [...((out.anyOf as unknown[] | undefined) ?? []), ...out.oneOf];
    delete out.oneOf;
  }
  if (Array.isArray(out.allOf)) {
    const { allOf, ...rest } = out;
    out = mergeAll([rest, ...(allOf as unknown[]).filter(isNode)]);
  }
  if (Array.isArray(out.prefixItems)) {
    const tuple = out.prefixItems.filter(isNode);
    if (out.items === undefined || out.items === false) {
      out.items = tuple.length === 1 ? tuple[0] : tuple.length > 1 ? { anyOf: tuple } : {};
    }
    delete out.prefixItems;
  }
  return out;
}

function gemini(node: Node): Node {
  let out: Node = { ...node };
  if ("const" in out) out.enum = [out.const];
  if (typeof out.exclusiveMinimum === "number") out.minimum ??= out.exclusiveMinimum;
  if (typeof out.exclusiveMaximum === "number") out.maximum ??= out.exclusiveMaximum;
  if (Array.isArray(out.type)) {
    // No type lists: `["string", "null"]` is `nullable`; several types become `anyOf`.
    const types = out.type.filter((t) => t !== "null");
    if (types.length < out.type.length) out.nullable = true;
    if (types.length === 1) out.type = types[0];
    else {
      if (types.length > 1) out.anyOf = types.map((type) => typedPart(out, String(type)));
      for (const key of ["type", "items", "properties", "required"]) delete out[key];
    }
  }
  if (Array.isArray(out.anyOf)) {
    const branches = out.anyOf.filter((b) => !(isNode(b) && b.type === "null"));
    if (branches.length < out.anyOf.length) out.nullable = true;
    const { anyOf: _anyOf, ...rest } = out;
    out =
      branches.length === 1 && isNode(branches[0])
        ? { ...branches[0], ...rest }
        : { ...rest, anyOf: branches };
    if (branches.length === 0) delete out.anyOf;
  }
  if (Array.isArray(out.enum)) {
    // Enums are of strings only ("format: enum"); a `null` among them is `nullable`.
    const values = out.enum.filter((v) => v !== null);
    if (values.length < out.enum.length) out.nullable = true;
    if (
      values.length > 0 &&
      values.every((v) => typeof v === "string") &&
      (out.type ?? "string") === "string"
    ) {
      out.type = "string";
      out.enum = values;
    } else {
      delete out.enum;
      if (out.type === undefined && values.length > 0) out.type = typeOfValues(values);
    }
  }
  if (out.type === undefined && out.anyOf === undefined) {
    if (isNode(out.properties)) out.type = "object";
    else if (out.items !== undefined) out.type = "array";
  }
  if (typeof out.format === "string" && !GEMINI_FORMATS[String(out.type)]?.includes(out.format))
    delete out.format;
  // "required[0]: property is not defined"; "properties: should be non-empty for OBJECT type".
  const known = isNode(out.properties) ? out.properties : {};
  if (Array.isArray(out.required)) out.required = out.required.filter((name) => name in known);
  if (Array.isArray(out.required) && out.required.length === 0) delete out.required;
  if (isNode(out.properties) && Object.keys(out.properties).length === 0) delete out.properties;
  return Object.fromEntries(Object.entries(out).filter(([key]) => GEMINI_KEYS.has(key)));
}

/** The one JSON Schema type of all `values`, if they share one. */
function typeOfValues(values: unknown[]): string | undefined {
  if (values.every((v) => Number.isInteger(v))) return "integer";
  if (values.every((v) => typeof v === "number")) return "number";
  if (values.every((v) => typeof v === "boolean")) return "boolean";
  return undefined;
}

/** The part of a multi-typed schema that applies to one type. */
function typedPart(node: Node, type: string): Node {
  if (type === "array") return { type, items: node.items ?? {} };
  if (type !== "object") return { type };
  const part: Node = { type };
  if (isNode(node.properties)) part.properties = node.properties;
  if (Array.isArray(node.required)) part.required = node.required;
  return part;
}

function openaiStrict(node: Node, where: string): Node {
  const out: Node = { ...node };
  for (const key of OPENAI_STRICT_UNSUPPORTED) delete out[key];
  if (typeof out.format === "string" && !OPENAI_STRICT_FORMATS.includes(out.format)) delete out.format;
  if (out.type === undefined && isNode(out.properties)) out.type = "object";
  if (out.type === undefined && !out.anyOf && !out.enum && !("const" in out)) {
    throw new TypeError(`${where}: a value of any type cannot be expressed in OpenAI strict mode`);
  }
  if (!typesOf(out).includes("object")) return out;
  const properties = isNode(out.properties) ? out.properties : {};
  // A tool without arguments takes `{}`; deeper down, an object without properties is an open map.
  if (Object.keys(properties).length === 0 && out.additionalProperties !== false && where !== "(root)") {
    throw new TypeError(`${where}: an object with arbitrary keys cannot be expressed in OpenAI strict mode`);
  }
  const required = new Set(Array.isArray(out.required) ? out.required : []);
  const strictProperties: Node = {};
  for (const [name, schema] of Object.entries(properties)) {
    strictProperties[name] = required.has(name) || !isNode(schema) ? schema : nullable(schema);
  }
  return {
    ...out,
    properties: strictProperties,
    required: Object.keys(strictProperties),
    additionalProperties: false,
  };
}

function nullable(schema: Node): Node {
  if (Array.isArray(schema.anyOf)) return { ...schema, anyOf: [...schema.anyOf, { type: "null" }] };
  if (schema.enum !== undefined || "const" in schema || schema.type === undefined) {
    return { anyOf: [schema, { type: "null" }] };
  }
  const types = typesOf(schema);
  return types.includes("null") ? schema : { ...schema, type: [...types, "null"] };
}

/** One node, bottom-up: children first, so an object sees its properties in final form. */
function adapt(node: unknown, provider: LlmProvider, strict: boolean, where: string): Node | false {
  if (node === false) return false;
  if (!isNode(node)) return {};
  let out = provider === "gemini" || strict ? simplify(node) : node;
  out = common(out);
  // Strict mode closes objects with properties; what their extra keys would have held is moot.
  if (strict && isNode(out.properties) && Object.keys(out.properties).length > 0)
    delete out.additionalProperties;
  out = mapChildren(out, (child, key, name) =>
    adapt(child, provider, strict, name === undefined ? `${where}.${key}` : `${where}.${key}.${name}`),
  );
  if (provider === "gemini") return gemini(out);
  if (strict) return openaiStrict(out, where);
  return out;
}

/**
 * A tool's input schema made fit for one provider's function calling, as a new object (the input
 * is never changed). For every provider: local `$ref`/`$defs` inlined (a cycle or a chain deeper
 * than `maxRefDepth` becomes `{}`), `$schema`/`$id`/`$comment`… dropped, the root an
 * object schema with `properties` and no `anyOf`/`oneOf`/`allOf`/`not`/`enum` (folded into the
 * object), every array given `items` (`{}` if it had none), `required` without repeats.
 * - `"openai"`: that is all the (non-strict) Chat Completions and Responses APIs need; with
 *   `{ strict: true }`, the Structured Outputs subset (see `LlmSchemaOptions.strict`).
 * - `"anthropic"`: that is all `input_schema` needs. Property names must match
 *   `^[a-zA-Z0-9_.-]{1,64}$`, which a schema cannot be fixed for without renaming arguments: not done.
 * - `"gemini"`: the OpenAPI subset of `parameters`: only the fields in `GEMINI_KEYS`; type lists
 *   and `null` branches become `nullable`; `oneOf` becomes `anyOf`, `allOf` is merged, tuples become
 *   arrays, `const` an `enum`, enums only of strings, `exclusiveMinimum/Maximum` become
 *   `minimum/maximum`, `format` kept only where Gemini accepts it, `required` limited to declared
 *   properties, empty `properties` removed (send no `parameters` for a tool without arguments).
 *   Untyped values (`{}`) stay untyped; some Gemini versions refuse them.
 * - `"generic"`: the common rules only, for other OpenAI-compatible servers (Ollama, vLLM…).
 *
 * A schema nested deeper than 100 levels or of more than 100,000 nodes (before or once inlined), or
 * with a `$ref` that cannot be resolved (a remote one, or a pointer to nothing), throws a `TypeError`.
 */
export function schemaForLlm(
  schema: JsonSchema,
  provider: LlmProvider,
  options: LlmSchemaOptions = {},
): JsonSchema {
  const strict = provider === "openai" && options.strict === true;
  return adapt(
    objectRoot(inlined(schema, options.maxRefDepth ?? 8)),
    provider,
    strict,
    "(root)",
  ) as JsonSchema;
}

/**
 * Undoes strict mode's nullable optionals: drops each `null` the model sent for a property that the
 * original schema neither required nor allowed to be `null`, at any depth.
 */
export function argumentsFromStrict(
  args: Record<string, unknown>,
  schema: JsonSchema,
): Record<string, unknown> {
  return clean(args, objectRoot(inlined(schema, 8))) as Record<string, unknown>;
}

function clean(value: unknown, schema: unknown): unknown {
  if (!isNode(schema)) return value;
  if (Array.isArray(value)) return value.map((item) => clean(item, schema.items));
  if (!isNode(value) || !isNode(schema.properties)) return value;
  const required = Array.isArray(schema.required) ? schema.required : [];
  const out: Node = {};
  for (const [key, item] of Object.entries(value)) {
    const property = schema.properties[key];
    if (item === null && !required.includes(key) && !allowsNull(property)) continue;
    out[key] = clean(item, property);
  }
  return out;
}

function allowsNull(schema: unknown): boolean {
  if (!isNode(schema)) return schema === true || schema === undefined;
  if (schema.type === undefined && !schema.anyOf && !schema.oneOf && !schema.enum && !("const" in schema))
    return true;
  if (typesOf(schema).includes("null") || (Array.isArray(schema.enum) && schema.enum.includes(null)))
    return true;
  return [schema.anyOf, schema.oneOf].some((list) => Array.isArray(list) && list.some(allowsNull));
}
