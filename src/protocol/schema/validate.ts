import type { JsonSchema } from "../types/tools.js";
import type { SchemaLike, Validation } from "./schema-like.js";
import { simpleChecker } from "./simple-json-schema.js";
import { isStandardSchema, type StandardIssue, type StandardSchemaV1 } from "./standard.js";

/** Checks a value against a schema. */
export type Validate = (value: unknown) => Validation | Promise<Validation>;

type AjvValidate = ((value: unknown) => boolean) & { errors?: ErrorLike[] | null };

let ajvPromise: Promise<{ compile(schema: object): AjvValidate }> | undefined;

/**
 * Ajv is loaded only when a plain JSON Schema the simple checker leaves to it must be checked:
 * zod users, and servers whose schemas are all simple, never pay for it.
 */
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

function standardValidator(std: StandardSchemaV1["~standard"]): Validate {
  const finish = (result: Awaited<ReturnType<typeof std.validate>>): Validation =>
    result.issues
      ? { ok: false, message: standardMessage(result.issues) }
      : { ok: true, value: result.value };
  return (value) => {
    const result = std.validate(value);
    return result instanceof Promise ? result.then(finish) : finish(result);
  };
}

type ErrorLike = { instancePath: string; message?: string; params?: Record<string, unknown> };

/** A sentence for the first error Ajv (or the simple checker, which mimics it) found. */
function messageOf(error: ErrorLike | undefined): string {
  const at = error?.instancePath ? error.instancePath.slice(1).replaceAll("/", ".") : "";
  const property = error?.params?.missingProperty ?? error?.params?.additionalProperty;
  const extra = property === undefined ? "" : ` (${String(property)})`;
  const message = `${error?.message ?? "does not match the schema"}${extra}`;
  return at ? `${at}: ${message}` : message;
}

function jsonValidator(schema: JsonSchema): Validate {
  const simple = simpleChecker(schema);
  if (simple) {
    return (value) => {
      const error = simple(value);
      return error ? { ok: false, message: messageOf(error) } : { ok: true, value };
    };
  }
  let compiled: AjvValidate | undefined;
  const check = (validate: AjvValidate, value: unknown): Validation =>
    validate(value) ? { ok: true, value } : { ok: false, message: messageOf(validate.errors?.[0]) };
  return (value) => {
    if (compiled) return check(compiled, value);
    return ajv().then((instance) => {
      compiled ??= instance.compile(schema);
      return check(compiled, value);
    });
  };
}

/** A validator for a schema: its own `validate` for a Standard Schema, Ajv for a JSON Schema. */
export function validatorOf(schema: SchemaLike): Validate {
  return isStandardSchema(schema) ? standardValidator(schema["~standard"]) : jsonValidator(schema);
}
