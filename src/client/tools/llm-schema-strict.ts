import type { JsonSchema } from "../../protocol/types/tools.js";
import { objectRoot, typesOf } from "./llm-schema-shapes.js";
import { inlined, isNode, type Node, words } from "./schema-inline.js";

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

/** A node as OpenAI strict mode takes it (see `LlmSchemaOptions.strict`); `where` names it in errors. */
export function openaiStrict(node: Node, where: string): Node {
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
