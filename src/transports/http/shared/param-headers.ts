import { boundsProblem, SCHEMA_BOUNDS } from "../../../util/json-bounds.js";

/**
 * HTTP headers that mirror parts of a 2026-07-28 request (SEP-2243): `Mcp-Name`, and the
 * `Mcp-Param-{Name}` headers of tool arguments annotated with `x-mcp-header`.
 */

/**
 * The param each method's `Mcp-Name` header mirrors: a tool's or prompt's name, a resource's URI,
 * and (the tasks extension, SEP-2663) the task id, so that intermediaries can route by it.
 */
export const MCP_NAME_SOURCE: Readonly<Record<string, string>> = {
  "tools/call": "name",
  "prompts/get": "name",
  "resources/read": "uri",
  "tasks/get": "taskId",
  "tasks/update": "taskId",
  "tasks/cancel": "taskId",
};

/** One mirrored argument: its header (lower-case) and the chain of `properties` keys to its value. */
export interface ParamHeader {
  header: string;
  path: string[];
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const SAFE_INTEGER_TYPES = new Set(["string", "integer", "boolean"]);

/**
 * The `Mcp-Param-*` headers a tool's input schema declares, or the reason the definition is
 * invalid (an empty or non-token name, a duplicate, a non-primitive or `number` property, or an
 * annotation not reachable through `properties` alone).
 */
export function paramHeadersOf(schema: Record<string, unknown>): ParamHeader[] | string {
  // Asked on every call to a tool: a schema is walked once.
  let known = analysed.get(schema);
  if (known === undefined) {
    // Peer data: measured with a loop before the recursive walk, which is then bounded.
    const problem = boundsProblem(schema, SCHEMA_BOUNDS);
    known = problem === undefined ? analyse(schema) : `the input schema ${problem}`;
    analysed.set(schema, known);
  }
  return known;
}

const analysed = new WeakMap<object, ParamHeader[] | string>();

function analyse(schema: Record<string, unknown>): ParamHeader[] | string {
  const found: ParamHeader[] = [];
  const seen = new Set<string>();
  const walk = (node: unknown, path: string[], reachable: boolean): string | undefined => {
    if (typeof node !== "object" || node === null) return undefined;
    const object = node as Record<string, unknown>;
    if ("x-mcp-header" in object && path.length > 0) {
      const name = object["x-mcp-header"];
      if (!reachable) return `x-mcp-header on ${path.join(".")} is not reachable through properties alone`;
      if (typeof name !== "string" || name.length === 0)
        return `x-mcp-header on ${path.join(".")} must be a non-empty string`;
      if (!TOKEN.test(name)) return `x-mcp-header "${name}" is not a valid HTTP header name`;
      if (!SAFE_INTEGER_TYPES.has(object.type as string)) {
        return `x-mcp-header "${name}" is on a property of type ${JSON.stringify(object.type)} (only string, integer, boolean)`;
      }
      const header = `mcp-param-${name.toLowerCase()}`;
      if (seen.has(header)) return `x-mcp-header "${name}" is used twice`;
      seen.add(header);
      found.push({ header, path });
    }
    for (const [key, value] of Object.entries(object)) {
      if (key === "properties" && typeof value === "object" && value !== null) {
        for (const [property, child] of Object.entries(value)) {
          const problem = walk(child, [...path, property], reachable);
          if (problem) return problem;
        }
      } else if (key !== "x-mcp-header" && typeof value === "object" && value !== null) {
        // Anything under items, anyOf, $defs, if/then … is not statically reachable.
        const children = Array.isArray(value) ? value : [value];
        for (const child of children) {
          const problem = walk(child, [...path, `(${key})`], false);
          if (problem) return problem;
        }
      }
    }
    return undefined;
  };
  return walk(schema, [], true) ?? found;
}

/** The value at a chain of property keys, or `undefined`. */
export function valueAt(args: unknown, path: string[]): unknown {
  let value = args;
  for (const key of path) {
    if (typeof value !== "object" || value === null) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** A header value: plain when it is visible ASCII without surrounding space, else `=?base64?…?=`. */
export function encodeHeaderValue(value: string): string {
  const plain = /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(value) || value === "";
  const looksEncoded = value.startsWith("=?base64?") && value.endsWith("?=");
  return plain && !looksEncoded ? value : `=?base64?${Buffer.from(value, "utf8").toString("base64")}?=`;
}

/**
 * A header value read back: plain, or `=?base64?…?=` which must be strictly valid base64; a value
 * that only half looks like the sentinel is literal. `undefined` when the encoding is invalid.
 */
export function decodeHeaderValue(value: string): string | undefined {
  if (!value.startsWith("=?base64?") || !value.endsWith("?=") || value.length < 11) return value;
  const encoded = value.slice(9, -2);
  if (encoded.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(encoded)) return undefined;
  return Buffer.from(encoded, "base64").toString("utf8");
}

/** The string a primitive argument is mirrored as. */
export function headerString(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean")
    return String(value);
  return undefined;
}
