/**
 * Which zod schemas can have their JSON Schema exported later, when first listed, instead of at
 * registration. zod's export costs tens of microseconds a schema and reading a schema's Standard
 * Schema interface makes zod keep an object of closures on it, so a server with thousands of zod
 * tools starts faster and holds less when neither happens before it is asked. A registration must
 * still fail on a schema MCP cannot use: only trees made of kinds whose export cannot fail are
 * deferred; any other schema is exported at registration as before, where its error surfaces.
 * zod is not imported: schemas are recognized by the shape of zod 4's instances.
 */
import type { JsonSchema } from "../types/tools.js";

interface ZodInternals {
  readonly def: { readonly type: string } & Record<string, unknown>;
  readonly version?: { readonly major: number; readonly minor: number };
  readonly toJSONSchema?: unknown;
}

/** A zod (classic, >= 4.2) schema: its internals and its own JSON Schema export. */
export interface ZodSchema {
  readonly _zod: ZodInternals;
  toJSONSchema(params: { target: string; io: "input" | "output" }): Record<string, unknown>;
}

/** Schemas of these kinds export to JSON Schema without anything that could fail. */
const LEAVES = new Set(["string", "boolean", "null", "any", "unknown", "never", "enum"]);
const WRAPPERS = new Set(["optional", "nullable", "readonly", "nonoptional"]);
/** Deeper trees are exported at registration: the walk stays cheap and bounded. */
const MAX_DEPTH = 32;

const internals = (value: unknown): ZodInternals | undefined => {
  const zod = (value as { _zod?: ZodInternals } | null | undefined)?._zod;
  return typeof zod === "object" && zod !== null && typeof zod.def === "object" ? zod : undefined;
};

const isPlainValue = (value: unknown): boolean =>
  value === null ||
  typeof value === "string" ||
  typeof value === "boolean" ||
  (typeof value === "number" && Number.isFinite(value));

/** An `id` in zod's global registry makes the export build `$defs`, which can conflict. */
function hasRegistryId(schema: object): boolean {
  const registry = (globalThis as { __zod_globalRegistry?: { get(schema: object): unknown } })
    .__zod_globalRegistry;
  const meta = registry?.get(schema) as { id?: unknown } | undefined;
  return meta?.id !== undefined;
}

function exportable(node: unknown, depth: number, seen: Set<unknown>): boolean {
  const zod = internals(node);
  // A schema seen twice may be recursive (a getter in a shape): zod handles those with $ref.
  if (!zod || depth > MAX_DEPTH || seen.has(node) || zod.toJSONSchema !== undefined) return false;
  seen.add(node);
  if (hasRegistryId(node as object)) return false;
  const def = zod.def;
  const child = (value: unknown) => exportable(value, depth + 1, seen);
  if (LEAVES.has(def.type)) return true;
  if (WRAPPERS.has(def.type)) return child(def.innerType);
  switch (def.type) {
    case "number":
      // A divisor of 0, NaN or Infinity cannot be exported.
      return !((def.checks as { _zod?: { def?: { check?: string } } }[] | undefined) ?? []).some(
        (check) => check?._zod?.def?.check === "multiple_of",
      );
    case "literal":
      return (def.values as unknown[]).every(isPlainValue);
    case "default":
      return isPlainValue(def.defaultValue) && child(def.innerType);
    case "object":
      return (
        Object.values(def.shape as Record<string, unknown>).every(child) &&
        (def.catchall === undefined || child(def.catchall))
      );
    case "array":
      return child(def.element);
    case "tuple":
      return (def.items as unknown[]).every(child) && (def.rest == null || child(def.rest));
    case "union":
      return (def.options as unknown[]).every(child);
    case "intersection":
      return child(def.left) && child(def.right);
    case "record": {
      const key = internals(def.keyType)?.def.type;
      return (key === "string" || key === "enum") && child(def.keyType) && child(def.valueType);
    }
    default:
      return false;
  }
}

/**
 * The zod schema, when exporting its JSON Schema can wait until it is listed: a zod >= 4.2
 * classic schema (the only ones exporting JSON Schema through their Standard Schema interface)
 * whose whole tree is of kinds that export without error; for an input, an object. Reads no
 * more than the schema's definitions.
 */
export function deferrableZod(schema: unknown, direction: "input" | "output"): ZodSchema | undefined {
  const zod = internals(schema);
  if (zod?.version?.major !== 4 || zod.version.minor < 2) return undefined;
  if (typeof (schema as Partial<ZodSchema>).toJSONSchema !== "function") return undefined;
  if (direction === "input" && zod.def.type !== "object") return undefined;
  return exportable(schema, 0, new Set()) ? (schema as ZodSchema) : undefined;
}

/** The JSON Schema of a zod schema, as its Standard JSON Schema interface gives it, without `$schema`. */
export function exportZod(schema: ZodSchema, direction: "input" | "output"): JsonSchema {
  const { $schema: _ignored, ...json } = schema.toJSONSchema({ target: "draft-2020-12", io: direction });
  return json as JsonSchema;
}
