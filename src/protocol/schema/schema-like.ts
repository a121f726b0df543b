import type { JsonSchema } from "../types/tools.js";
import type { StandardSchemaV1 } from "./standard.js";

/** A schema mcpkit accepts: a Standard Schema with JSON Schema export (zod v4 …) or plain JSON Schema. */
export type SchemaLike = StandardSchemaV1 | JsonSchema;

/** The outcome of a validation: the (possibly transformed) value, or a sentence naming what is wrong. */
export type Validation = { ok: true; value: unknown } | { ok: false; message: string };
