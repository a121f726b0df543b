import type { Tool } from "../../protocol/types/tools.js";
import { SCHEMA_BOUNDS, tooDeep, tooManyNodes } from "../../util/json-bounds.js";
import { resolvePointer } from "./schema-inline.js";

/** Keywords whose values are data, not schemas: a `$ref` key inside them is no reference. */
const DATA = new Set(["const", "enum", "default", "examples", "example"]);

/**
 * Why a schema from a server cannot be used, as a phrase about `subject` ("its input schema nests
 * deeper than 100 levels", "its input schema's $ref "x.json" cannot be resolved"), or `undefined`.
 * One loop measures it against `SCHEMA_BOUNDS` (first) and collects its `$ref`s, so any schema can
 * be asked about; the references are resolved once the walk found it within bounds.
 */
export function schemaProblem(schema: unknown, subject: string): string | undefined {
  if (typeof schema !== "object" || schema === null || plainlyFine(schema)) return undefined;
  const bounds = SCHEMA_BOUNDS;
  const stack: object[] = [schema];
  // Negative under a data keyword, where a `$ref` member is a value, not a reference.
  const depths: number[] = [1];
  let nodes = 1;
  let refs: string[] | undefined;
  while (stack.length > 0) {
    const node = stack.pop() as Record<string, unknown>;
    const signed = depths.pop()!;
    const depth = Math.abs(signed);
    if (depth > bounds.maxDepth) return `${subject} ${tooDeep(bounds)}`;
    if (Array.isArray(node)) {
      // By index: `for…in` lists every index of an array before the first is counted.
      for (let i = 0; i < node.length; i++) {
        if (++nodes > bounds.maxNodes) return `${subject} ${tooManyNodes(bounds)}`;
        const member: unknown = node[i];
        if (typeof member === "object" && member !== null) {
          stack.push(member);
          depths.push(signed < 0 ? -(depth + 1) : depth + 1);
        }
      }
      continue;
    }
    for (const key in node) {
      if (++nodes > bounds.maxNodes) return `${subject} ${tooManyNodes(bounds)}`;
      const member = node[key];
      if (typeof member === "object" && member !== null) {
        stack.push(member);
        depths.push(signed < 0 || DATA.has(key) ? -(depth + 1) : depth + 1);
      } else if (key === "$ref" && signed > 0 && typeof member === "string") {
        refs ??= [];
        refs.push(member);
      }
    }
  }
  // Only local pointers can be followed: nothing is fetched for a schema a server sent.
  const unresolved = refs?.find(
    (ref) => resolvePointer(schema as Record<string, unknown>, ref) === undefined,
  );
  return unresolved === undefined
    ? undefined
    : `${subject}'s $ref ${JSON.stringify(unresolved)} cannot be resolved`;
}

/**
 * Whether a schema's JSON text alone shows it within `SCHEMA_BOUNDS` and free of `$ref`: every
 * value takes a character and every level an opening bracket. Native string work costs a small
 * schema less than walking it, and far less before the walk is optimized (a client's first listing
 * is usually its only one); a schema this cannot vouch for is walked.
 */
function plainlyFine(schema: object): boolean {
  let text: string;
  try {
    text = JSON.stringify(schema);
  } catch {
    return false;
  }
  if (text.length >= SCHEMA_BOUNDS.maxNodes || text.includes('"$ref"')) return false;
  return (
    text.length <= 2 * SCHEMA_BOUNDS.maxDepth ||
    text.replace(NOT_OPENING, "").length <= SCHEMA_BOUNDS.maxDepth
  );
}

const NOT_OPENING = /[^[{]/g;

/**
 * The tools of a listing whose schemas can be used; each one left out (a schema too deep or too
 * large to walk, or with a `$ref` that cannot be resolved) is named in a warning.
 */
export function usableSchemas(tools: Tool[], warn: (message: string) => void): Tool[] {
  return tools.filter((tool) => {
    const problem =
      schemaProblem(tool.inputSchema, "its input schema") ??
      (tool.outputSchema === undefined ? undefined : schemaProblem(tool.outputSchema, "its output schema"));
    if (problem !== undefined) warn(`Tool ${tool.name} left out: ${problem}`);
    return problem === undefined;
  });
}
