/**
 * The restricted JSON Schema subset of form-mode elicitation, as types, and the small readers both
 * the schema checks and the answer checks use.
 */

/** The string formats a form may ask for. */
export type StringFormat = "email" | "uri" | "date" | "date-time";

/** What every property may carry for display. */
export type Labelled = { title?: string; description?: string };

/** A free-text field. `pattern` appears in the spec text, though not in the schema definitions. */
export type StringSchema = Labelled & {
  type: "string";
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: StringFormat;
  default?: string;
};
/** A number; `integer` rejects fractions. */
export type NumberSchema = Labelled & {
  type: "number" | "integer";
  minimum?: number;
  maximum?: number;
  default?: number;
};
/** A yes/no field; the only type with a `default` in 2025-06-18. */
export type BooleanSchema = Labelled & { type: "boolean"; default?: boolean };
/** One option of a titled enum. */
export type TitledOption = { const: string; title: string };
/** Single-select of bare values. */
export type UntitledSingleSelectEnumSchema = Labelled & { type: "string"; enum: string[]; default?: string };
/** Single-select with a title per option (since 2025-11-25). */
export type TitledSingleSelectEnumSchema = Labelled & {
  type: "string";
  oneOf: TitledOption[];
  default?: string;
};
/** Single-select with display names in the non-standard `enumNames` (deprecated by 2025-11-25). */
export type LegacyTitledEnumSchema = UntitledSingleSelectEnumSchema & { enumNames?: string[] };
/** What both multi-select forms share: a list of choices, bounded in length. */
export type MultiSelect = Labelled & {
  type: "array";
  minItems?: number;
  maxItems?: number;
  default?: string[];
};
/** Multi-select of bare values (since 2025-11-25). */
export type UntitledMultiSelectEnumSchema = MultiSelect & { items: { type: "string"; enum: string[] } };
/** Multi-select with a title per option (since 2025-11-25). */
export type TitledMultiSelectEnumSchema = MultiSelect & { items: { anyOf: TitledOption[] } };
export type SingleSelectEnumSchema = UntitledSingleSelectEnumSchema | TitledSingleSelectEnumSchema;
export type MultiSelectEnumSchema = UntitledMultiSelectEnumSchema | TitledMultiSelectEnumSchema;
export type EnumSchema = SingleSelectEnumSchema | MultiSelectEnumSchema | LegacyTitledEnumSchema;
/** Any property of a form: primitives only, no nesting. */
export type PrimitiveSchemaDefinition = StringSchema | NumberSchema | BooleanSchema | EnumSchema;
/** One choice of an enum property, as {@link enumOptions} lists it. */
export type EnumOption = { value: string; title?: string };

/** A form-mode `requestedSchema`: a flat object of primitive properties. */
export interface ElicitationSchema {
  $schema?: string;
  type: "object";
  properties: Record<string, PrimitiveSchemaDefinition>;
  required?: string[];
}

/** A schema or value node read from a peer: any JSON object. */
export type Node = Record<string, unknown>;

export const isNode = (v: unknown): v is Node => typeof v === "object" && v !== null && !Array.isArray(v);
export const quote = (v: unknown): string => JSON.stringify(v);

/** A JSON Schema `pattern` as a RegExp, or `undefined` when it does not compile. */
export function regExp(pattern: string): RegExp | undefined {
  try {
    return new RegExp(pattern, "u"); // JSON Schema patterns are ECMA-262, unanchored
  } catch {
    return undefined;
  }
}
