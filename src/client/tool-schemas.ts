import type { Tool } from "../protocol/types/tools.js";
import { boundsProblem, SCHEMA_BOUNDS } from "../util/json-bounds.js";
import { resolvePointer } from "./schema-inline.js";

/** Keywords whose values are data, not schemas: a `$ref` key inside them is no reference. */
const DATA = new Set(["const", "enum", "default", "examples", "example"]);

/**
 * Why a schema from a server cannot be used, as a phrase about `subject` ("its input schema nests
 * deeper than 100 levels", "its input schema's $ref "x.json" cannot be resolved"), or `undefined`.
 * Measured with a loop, so any schema can be asked about.
 */
export function schemaProblem(schema: unknown, subject: string): string | undefined {
  const bounds = boundsProblem(schema, SCHEMA_BOUNDS);
  if (bounds !== undefined) return `${subject} ${bounds}`;
  if (typeof schema !== "object" || schema === null) return undefined;
  const root = schema as Record<string, unknown>;
  const stack: unknown[] = [schema];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== "object" || node === null) continue;
    const ref = (node as { $ref?: unknown }).$ref;
    // Only local pointers can be followed: nothing is fetched for a schema a server sent.
    if (typeof ref === "string" && resolvePointer(root, ref) === undefined) {
      return `${subject}'s $ref ${JSON.stringify(ref)} cannot be resolved`;
    }
    for (const key in node) if (!DATA.has(key)) stack.push((node as Record<string, unknown>)[key]);
  }
  return undefined;
}

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
