import { isNode, type Node } from "./schema-inline.js";

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
export function objectRoot(schema: Node): Node {
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

/** A node's `type` as a list. */
export const typesOf = (node: Node): unknown[] => (Array.isArray(node.type) ? node.type : [node.type]);

/** `oneOf` as `anyOf`, `allOf` merged, tuples as arrays: for providers without them. */
export function simplify(node: Node): Node {
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
