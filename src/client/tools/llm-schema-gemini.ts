import { isNode, type Node, words } from "./schema-inline.js";

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

/** A node as Gemini's OpenAPI subset of `parameters` takes it (see `schemaForLlm`). */
export function gemini(node: Node): Node {
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
