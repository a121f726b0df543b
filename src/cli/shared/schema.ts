/**
 * Reading a tool's input schema: a short signature for humans, typing `--arg k=v` values, and
 * checking the arguments before they are sent.
 */
import { compileSchema } from "../../protocol/schema/validator.js";
import type { JsonSchema } from "../../protocol/types/tools.js";
import { UsageError } from "./errors.js";
import { peerText } from "./peer-text.js";

type Node = Record<string, unknown>;
const isNode = (v: unknown): v is Node => typeof v === "object" && v !== null && !Array.isArray(v);

/** The JSON types a property accepts; empty when the schema does not say. */
function typesOf(schema: unknown): string[] {
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
function typeLabel(schema: unknown): string {
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
 * are accepted, else the text read as the number or boolean the property takes. Text that cannot be
 * any type the property takes is a `UsageError`. Without a schema: JSON when it parses, else the text.
 */
export function typedValue(schema: unknown, text: string, key = "value"): unknown {
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
  const number = Number(text.trim());
  if (types.includes("number") && NUMBER.test(text.trim())) return number;
  if (types.includes("integer") && NUMBER.test(text.trim()) && Number.isInteger(number)) return number;
  if (types.includes("boolean") && /^(true|false)$/i.test(text)) return text.toLowerCase() === "true";
  const takes = types.map((type) => (/^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`)).join(" or ");
  throw new UsageError(
    `--arg ${key}=${text}: "${key}" takes ${takes}, and ${JSON.stringify(text)} is not one`,
  );
}

/**
 * Checks a tool's arguments against its input schema before they are sent, so a missing or
 * mistyped argument is the user's to fix (exit 2), not a round trip. A schema that cannot be
 * compiled is left to the server.
 */
export async function checkArguments(tool: { name: string; inputSchema?: JsonSchema }, args: unknown) {
  if (!tool.inputSchema) return;
  let validation: Awaited<ReturnType<ReturnType<typeof compileSchema>["validate"]>>;
  // Servers built on zod 3 tools declare draft-07, which the 2020-12 checker does not load by
  // URI; what tools use of it (types, properties, required, enums) reads the same in both.
  const { $schema: _declared, ...schema } = tool.inputSchema;
  try {
    validation = await compileSchema(schema as JsonSchema).validate(args);
  } catch {
    return;
  }
  if (!validation.ok) {
    throw new UsageError(
      `${peerText(tool.name, "name")}'s arguments: ${peerText(validation.message, "text")} (--no-validate sends them as they are)`,
    );
  }
}
