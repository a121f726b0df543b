import type { JsonSchema } from "../../protocol/types/tools.js";
import { gemini } from "./llm-schema-gemini.js";
import { objectRoot, simplify, typesOf } from "./llm-schema-shapes.js";
import { openaiStrict } from "./llm-schema-strict.js";
import { inlined, isNode, mapChildren, type Node } from "./schema-inline.js";

/** Whose function-calling API a schema is prepared for. */
export type LlmProvider = "openai" | "anthropic" | "gemini" | "generic";

export interface LlmSchemaOptions {
  /**
   * OpenAI only: make the schema fit strict mode (`strict: true`, Structured Outputs). Every object
   * gets `additionalProperties: false` and lists every property in `required`; a property that was
   * optional becomes nullable, so the model sends `null` for it: pass what the model sends through
   * `argumentsFromStrict(args, originalSchema)` before calling the tool. A schema strict mode
   * cannot express (a value of any type, an open map) throws a `TypeError` naming where: use that
   * tool without `strict`.
   */
  strict?: boolean;
  /** How many `$ref`s may be expanded inside one another along one path; default 8. */
  maxRefDepth?: number;
}

/** Keywords about identity and reuse, which mean nothing once `$ref`s are inlined. All providers. */
const META = ["$schema", "$id", "$anchor", "$dynamicAnchor", "$dynamicRef", "$comment", "$vocabulary"];

/** Rules every provider needs; the only ones for `"generic"`. */
function common(node: Node): Node {
  const out: Node = { ...node };
  for (const key of META) delete out[key];
  // OpenAI: "array schema missing items"; Gemini: "items: missing field".
  if (typesOf(out).includes("array") && out.items === undefined) out.items = {};
  // A name listed twice is an error in 2020-12.
  if (Array.isArray(out.required)) out.required = [...new Set(out.required)];
  return out;
}

/** One node, bottom-up: children first, so an object sees its properties in final form. */
function adapt(node: unknown, provider: LlmProvider, strict: boolean, where: string): Node | false {
  if (node === false) return false;
  if (!isNode(node)) return {};
  let out = provider === "gemini" || strict ? simplify(node) : node;
  out = common(out);
  // Strict mode closes objects with properties; what their extra keys would have held is moot.
  if (strict && isNode(out.properties) && Object.keys(out.properties).length > 0)
    delete out.additionalProperties;
  out = mapChildren(out, (child, key, name) =>
    adapt(child, provider, strict, name === undefined ? `${where}.${key}` : `${where}.${key}.${name}`),
  );
  if (provider === "gemini") return gemini(out);
  if (strict) return openaiStrict(out, where);
  return out;
}

/**
 * A tool's input schema made fit for one provider's function calling, as a new object (the input
 * is never changed). For every provider: local `$ref`/`$defs` inlined (a cycle or a chain deeper
 * than `maxRefDepth` becomes `{}`), `$schema`/`$id`/`$comment`… dropped, the root an
 * object schema with `properties` and no `anyOf`/`oneOf`/`allOf`/`not`/`enum` (folded into the
 * object), every array given `items` (`{}` if it had none), `required` without repeats.
 * - `"openai"`: that is all the (non-strict) Chat Completions and Responses APIs need; with
 *   `{ strict: true }`, the Structured Outputs subset (see `LlmSchemaOptions.strict`).
 * - `"anthropic"`: that is all `input_schema` needs. Property names must match
 *   `^[a-zA-Z0-9_.-]{1,64}$`, which a schema cannot be fixed for without renaming arguments: not done.
 * - `"gemini"`: the OpenAPI subset of `parameters`: only the fields in `GEMINI_KEYS`; type lists
 *   and `null` branches become `nullable`; `oneOf` becomes `anyOf`, `allOf` is merged, tuples become
 *   arrays, `const` an `enum`, enums only of strings, `exclusiveMinimum/Maximum` become
 *   `minimum/maximum`, `format` kept only where Gemini accepts it, `required` limited to declared
 *   properties, empty `properties` removed (send no `parameters` for a tool without arguments).
 *   Untyped values (`{}`) stay untyped; some Gemini versions refuse them.
 * - `"generic"`: the common rules only, for other OpenAI-compatible servers (Ollama, vLLM…).
 *
 * A schema nested deeper than 100 levels or of more than 100,000 nodes (before or once inlined), or
 * with a `$ref` that cannot be resolved (a remote one, or a pointer to nothing), throws a `TypeError`.
 */
export function schemaForLlm(
  schema: JsonSchema,
  provider: LlmProvider,
  options: LlmSchemaOptions = {},
): JsonSchema {
  const strict = provider === "openai" && options.strict === true;
  return adapt(
    objectRoot(inlined(schema, options.maxRefDepth ?? 8)),
    provider,
    strict,
    "(root)",
  ) as JsonSchema;
}
