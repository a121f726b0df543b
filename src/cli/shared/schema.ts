/** Reading a tool's input schema: a short signature for humans, and typing `--arg k=v` values. */
import type { JsonSchema } from "../../protocol/types/tools.js";

type Node = Record<string, unknown>;
const isNode = (v: unknown): v is Node => typeof v === "object" && v !== null && !Array.isArray(v);

/** The JSON types a property accepts; empty when the schema does not say. */
export function typesOf(schema: unknown): string[] {
  if (!isNode(schema)) return [];
  if (typeof schema.type === "string") return [schema.type];
  if (Array.isArray(schema.type)) return schema.type.filter((t): t is string => typeof t === "string");
  if (Array.isArray(schema.enum)) return [...new Set(schema.enum.map(jsonType))];
  if ("const" in schema) return [jsonType(schema.const)];
  for (const key of ["anyOf", "oneOf"]) {
    const list = schema[key];
    if (Array.isArray(list)) return [...new Set(list.flatMap(typesOf))];
  }
  return [];
}

function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value === "number" ? "number" : typeof value;
}

/** `string`, `number[]`, `"a"|"b"`, `string|null`: what a property looks like, briefly. */
export function typeLabel(schema: unknown): string {
  if (!isNode(schema)) return "any";
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join("|");
  if (schema.type === "array") return `${typeLabel(schema.items)}[]`;
  const types = typesOf(schema);
  if (types.length > 0) return types.join("|");
  return "$ref" in schema ? "object" : "any";
}

/** The properties and required names of an object schema. */
export function propertiesOf(schema: JsonSchema | undefined): { properties: Node; required: string[] } {
  const properties = isNode(schema?.properties) ? schema.properties : {};
  const required = Array.isArray(schema?.required) ? (schema.required as string[]) : [];
  return { properties, required };
}

/** `message: string, count?: number`: a tool's arguments on one line. */
export function signature(schema: JsonSchema | undefined): string {
  const { properties, required } = propertiesOf(schema);
  return Object.entries(properties)
    .map(([name, property]) => `${name}${required.includes(name) ? "" : "?"}: ${typeLabel(property)}`)
    .join(", ");
}

const NUMBER = /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

/**
 * The value of `--arg key=text` for a property of this schema: JSON when it parses to a type the
 * property accepts (so a string property keeps `007` and `true` as text), else the text when strings
 * are accepted. Without a schema: JSON when it parses, else the text.
 */
export function typedValue(schema: unknown, text: string): unknown {
  let parsed: { value: unknown } | undefined;
  try {
    parsed = { value: JSON.parse(text) };
  } catch {
    parsed = undefined;
  }
  const types = typesOf(schema);
  if (types.length === 0) return parsed ? parsed.value : text;
  if (parsed) {
    const type = jsonType(parsed.value);
    const integer = type === "number" && types.includes("integer") && Number.isInteger(parsed.value);
    if (types.includes(type) || integer) return parsed.value;
  }
  if (types.includes("string")) return text;
  if ((types.includes("number") || types.includes("integer")) && NUMBER.test(text.trim()))
    return Number(text);
  if (types.includes("boolean") && /^(true|false)$/i.test(text)) return text.toLowerCase() === "true";
  return parsed ? parsed.value : text;
}
