import type { JsonSchema } from "../types/tools.js";
import { exportJsonSchema } from "./json-schema.js";
import type { SchemaLike, Validation } from "./schema-like.js";
import { isStandardSchema } from "./standard.js";
import { validatorOf } from "./validate.js";

export type { SchemaLike, Validation } from "./schema-like.js";

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
