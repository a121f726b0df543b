import type { JsonSchema } from "../types/tools.js";
import type { StandardSchemaV1 } from "./standard.js";

/** A Standard Schema's JSON Schema export, without `$schema`: MCP lists schemas bare. */
export function exportJsonSchema(schema: StandardSchemaV1, direction: "input" | "output"): JsonSchema {
  const std = schema["~standard"];
  if (!std.jsonSchema) throw new TypeError(cannotExport(std.vendor));
  const { $schema: _ignored, ...jsonSchema } = std.jsonSchema[direction]({ target: "draft-2020-12" });
  return jsonSchema;
}

/** Zod implements Standard JSON Schema from 4.2 on; zod 3 and 4.0–4.1 schemas reach here without it. */
function cannotExport(vendor: string): string {
  const why = `The ${vendor} schema cannot export JSON Schema, which MCP needs to describe it`;
  if (vendor === "zod") {
    return `${why}: mcpkit needs zod >= 4.2 (zod 3 and 4.0–4.1 lack Standard JSON Schema); install zod@^4.2`;
  }
  return `${why}: use a schema library that implements Standard JSON Schema (such as zod >= 4.2), or plain JSON Schema`;
}

/** Interned schemas by JSON text; weakly held, so a schema no tool lists any more is collected. */
const interned = new Map<string, WeakRef<JsonSchema>>();
const forget = new FinalizationRegistry<string>((text) => {
  if (interned.get(text)?.deref() === undefined) interned.delete(text);
});

/**
 * The one object kept for every JSON Schema with this JSON text: servers register thousands of
 * tools with equal schemas, and a schema library exports a fresh copy for each of them. The object
 * kept is a copy of mcpkit's own, so a caller changing the schema it gave changes no other tool.
 */
export function intern(schema: JsonSchema): JsonSchema {
  const text = JSON.stringify(schema);
  const known = interned.get(text)?.deref();
  if (known) return known;
  const copy = JSON.parse(text) as JsonSchema;
  interned.set(text, new WeakRef(copy));
  forget.register(copy, text);
  return copy;
}
