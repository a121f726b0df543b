import type { JsonSchema } from "../types/tools.js";
import { isStandardSchema, type StandardIssue, type StandardSchemaV1 } from "./standard.js";

/** A schema mcpkit accepts: a Standard Schema with JSON Schema export (zod v4 …) or plain JSON Schema. */
export type SchemaLike = StandardSchemaV1 | JsonSchema;

/** The outcome of a validation: the (possibly transformed) value, or a sentence naming what is wrong. */
export type Validation = { ok: true; value: unknown } | { ok: false; message: string };

/** A schema ready to use: its JSON Schema for the wire and a validator for values. */
export interface CompiledSchema {
  readonly jsonSchema: JsonSchema;
  validate(value: unknown): Validation | Promise<Validation>;
}

type AjvValidate = ((value: unknown) => boolean) & {
  errors?: { instancePath: string; message?: string; params?: Record<string, unknown> }[] | null;
};

let ajvPromise: Promise<{ compile(schema: object): AjvValidate }> | undefined;

/** Ajv is loaded only when a plain JSON Schema must be checked: zod users never pay for it. */
function ajv(): Promise<{ compile(schema: object): AjvValidate }> {
  ajvPromise ??= import("ajv/dist/2020.js").then((module) => {
    const Ajv2020 = (
      module as unknown as { default: new (options: object) => { compile(schema: object): AjvValidate } }
    ).default;
    return new Ajv2020({ strict: false, allErrors: false, validateFormats: false });
  });
  return ajvPromise;
}

function pathOf(issue: StandardIssue): string {
  if (!issue.path || issue.path.length === 0) return "";
  return issue.path.map((p) => String(typeof p === "object" ? p.key : p)).join(".");
}

function standardMessage(issues: readonly StandardIssue[]): string {
  return issues
    .map((issue) => {
      const path = pathOf(issue);
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join("; ");
}

function compileStandard(schema: StandardSchemaV1, direction: "input" | "output"): CompiledSchema {
  const std = schema["~standard"];
  if (!std.jsonSchema) {
    throw new TypeError(`The ${std.vendor} schema cannot export JSON Schema, which MCP needs to describe it`);
  }
  const { $schema: _ignored, ...jsonSchema } = std.jsonSchema[direction]({ target: "draft-2020-12" });
  const finish = (result: Awaited<ReturnType<typeof std.validate>>): Validation =>
    result.issues
      ? { ok: false, message: standardMessage(result.issues) }
      : { ok: true, value: result.value };
  return {
    jsonSchema,
    validate(value) {
      const result = std.validate(value);
      return result instanceof Promise ? result.then(finish) : finish(result);
    },
  };
}

function compileJson(schema: JsonSchema): CompiledSchema {
  let compiled: AjvValidate | undefined;
  const check = (validate: AjvValidate, value: unknown): Validation => {
    if (validate(value)) return { ok: true, value };
    const error = validate.errors?.[0];
    const at = error?.instancePath ? error.instancePath.slice(1).replaceAll("/", ".") : "";
    const property = error?.params?.missingProperty ?? error?.params?.additionalProperty;
    const extra = property === undefined ? "" : ` (${String(property)})`;
    const message = `${error?.message ?? "does not match the schema"}${extra}`;
    return { ok: false, message: at ? `${at}: ${message}` : message };
  };
  return {
    jsonSchema: schema,
    validate(value) {
      if (compiled) return check(compiled, value);
      return ajv().then((instance) => {
        compiled ??= instance.compile(schema);
        return check(compiled, value);
      });
    },
  };
}

/** Prepares a schema for use on the wire and for validation. */
export function compileSchema(schema: SchemaLike, direction: "input" | "output" = "input"): CompiledSchema {
  return isStandardSchema(schema) ? compileStandard(schema, direction) : compileJson(schema);
}
