import type { JsonSchema } from "../../protocol/types/tools.js";
import { boundsProblem, SCHEMA_BOUNDS } from "../../util/json-bounds.js";

/** One JSON Schema object. */
export type Node = Record<string, unknown>;

export const words = (text: string): string[] => text.trim().split(/\s+/);

export const isNode = (value: unknown): value is Node =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const SINGLE = words(`items additionalProperties not if then else contains propertyNames unevaluatedItems
  unevaluatedProperties additionalItems`);
const LISTS = ["anyOf", "oneOf", "allOf", "prefixItems"];
const MAPS = ["properties", "patternProperties", "dependentSchemas"];

/** Calls `map` on every subschema of `node` (not on `const`, `enum`, `default` values), in a copy. */
export function mapChildren(node: Node, map: (child: unknown, key: string, name?: string) => unknown): Node {
  const out: Node = { ...node };
  for (const key of SINGLE) {
    const child = out[key];
    if (Array.isArray(child) && key === "items") out[key] = child.map((c, i) => map(c, key, String(i)));
    else if (isNode(child) || typeof child === "boolean") out[key] = map(child, key);
  }
  for (const key of LISTS) {
    if (Array.isArray(out[key])) out[key] = (out[key] as unknown[]).map((c, i) => map(c, key, String(i)));
  }
  for (const key of MAPS) {
    const children = out[key];
    if (!isNode(children)) continue;
    const mapped: Node = {};
    for (const [name, child] of Object.entries(children)) {
      if (child === false) continue; // a property that may not appear: say nothing of it
      mapped[name] = map(child, key, name);
    }
    out[key] = mapped;
  }
  return out;
}

/** Resolves a local JSON pointer (`#`, `#/$defs/Name`, `#/properties/a`); anything else is not followed. */
export function resolvePointer(root: Node, ref: string): unknown {
  if (ref === "#") return root;
  if (!ref.startsWith("#/")) return undefined;
  let at: unknown = root;
  for (const raw of ref.slice(2).split("/")) {
    const key = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
    if (!isNode(at) && !Array.isArray(at)) return undefined;
    at = (at as Node)[key];
  }
  return at;
}

/** The most nodes a schema may grow to once its `$ref`s are inlined (each use is a copy). */
const MAX_INLINED_NODES = SCHEMA_BOUNDS.maxNodes;
/** The most levels it may nest once inlined. */
const MAX_INLINED_DEPTH = 2 * SCHEMA_BOUNDS.maxDepth;

/** One inlining: the schema `$ref`s point into, the longest chain of them, and the nodes made so far. */
interface Inlining {
  root: Node;
  maxRefDepth: number;
  nodes: number;
}

/**
 * Replaces every local `$ref` by what it points to (its sibling keywords kept, as 2020-12 allows).
 * A `$ref` already being expanded on the path (a cycle) or deeper than `maxRefDepth` is cut to `{}`
 * (any value) plus its siblings, such as `description`. A `$ref` that cannot be resolved (not
 * local, or pointing at nothing) and a result too large or too deep throw a `TypeError`.
 */
function inline(node: unknown, at: Inlining, path: string[], depth: number): unknown {
  if (++at.nodes > MAX_INLINED_NODES) {
    throw new TypeError(
      `The schema expands to more than ${MAX_INLINED_NODES} nodes once its $refs are inlined`,
    );
  }
  if (depth > MAX_INLINED_DEPTH) {
    throw new TypeError(
      `The schema nests deeper than ${MAX_INLINED_DEPTH} levels once its $refs are inlined`,
    );
  }
  if (node === true) return {};
  if (!isNode(node)) return node;
  if (typeof node.$ref === "string") {
    const { $ref: ref, ...siblings } = node as Node & { $ref: string };
    const cut = path.includes(ref) || path.length >= at.maxRefDepth;
    const target = cut ? undefined : resolvePointer(at.root, ref);
    if (!cut && target === undefined) {
      throw new TypeError(`The schema's $ref ${JSON.stringify(ref)} cannot be resolved`);
    }
    const expanded = isNode(target) ? { ...target, ...siblings } : target === true ? siblings : undefined;
    if (expanded) return inline(expanded, at, [...path, ref], depth);
    return inline(siblings, at, path, depth);
  }
  const { $defs: _defs, definitions: _definitions, ...rest } = node;
  return mapChildren(rest, (child) => inline(child, at, path, depth + 1));
}

/** `schema` with its `$ref`s inlined, after checking it is small enough to walk. */
export function inlined(schema: JsonSchema, maxRefDepth: number): Node {
  const problem = boundsProblem(schema, SCHEMA_BOUNDS);
  if (problem !== undefined) throw new TypeError(`The schema ${problem}`);
  const source = structuredClone(schema) as Node;
  return inline(source, { root: source, maxRefDepth, nodes: 0 }, [], 0) as Node;
}
