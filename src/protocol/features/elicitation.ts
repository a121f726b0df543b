/**
 * Form-mode elicitation (`elicitation/create` with `requestedSchema`): the restricted JSON Schema subset,
 * checked and applied without I/O.
 *
 * - 2025-06-18: string, number/integer, boolean and single-select `enum` (+ optional `enumNames`);
 *   `default` only on booleans.
 * - 2025-11-25: adds `default` on every type (SEP-1034) and titled single-select (`oneOf` of
 *   `{const, title}`) and untitled/titled multi-select (`type: "array"`) enums (SEP-1330).
 */

export { applyDefaults, contentProblems, enumOptions } from "./elicitation-content.js";
export type {
  BooleanSchema,
  ElicitationSchema,
  EnumOption,
  EnumSchema,
  Labelled,
  LegacyTitledEnumSchema,
  MultiSelect,
  MultiSelectEnumSchema,
  NumberSchema,
  PrimitiveSchemaDefinition,
  SingleSelectEnumSchema,
  StringFormat,
  StringSchema,
  TitledMultiSelectEnumSchema,
  TitledOption,
  TitledSingleSelectEnumSchema,
  UntitledMultiSelectEnumSchema,
  UntitledSingleSelectEnumSchema,
} from "./elicitation-schema.js";
export { requestedSchemaProblems } from "./requested-schema.js";
