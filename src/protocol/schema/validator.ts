import type { JsonSchema } from "../types/tools.js";
import { exportJsonSchema } from "./json-schema.js";
import { isStandardSchema, type StandardSchemaV1 } from "./standard.js";
import { validatorOf } from "./validate.js";

/** A schema mcpkit accepts: a Standard Schema with JSON Schema export (zod v4 …) or plain JSON Schema. */
export type SchemaLike = StandardSchemaV1 | JsonSchema;

/** The outcome of a validation: the (possibly transformed) value, or a sentence naming what is wrong. */
export type Validation = { ok: true; value: unknown } | { ok: false; message: string };

/** A schema ready to use: its JSON Schema for the wire and a validator for values. */
export interface CompiledSchema {
  readonly jsonSchema: JsonSchema;
  validate(value: unknown): Validation | Promise<Validation>;
}

/** Prepares a schema for use on the wire and for validation. */
export function compileSchema(schema: SchemaLike, direction: "input" | "output" = "input"): CompiledSchema {
  const jsonSchema = isStandardSchema(schema) ? exportJsonSchema(schema, direction) : schema;
  return { jsonSchema, validate: validatorOf(schema) };
}
