import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { simpleChecker } from "../../src/protocol/schema/simple-json-schema.js";
import { validatorOf } from "../../src/protocol/schema/validate.js";
import type { JsonSchema } from "../../src/protocol/types/tools.js";

// The options mcpkit gives Ajv: the simple checker must agree with Ajv under them.
const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: false });

function expectSameAsAjv(schema: JsonSchema, values: unknown[]) {
  const check = simpleChecker(schema);
  expect(check, JSON.stringify(schema)).toBeTypeOf("function");
  const validate = ajv.compile(structuredClone(schema));
  for (const value of values) {
    const first = validate(value) ? undefined : validate.errors![0]!;
    const expected = first && {
      instancePath: first.instancePath,
      message: first.message,
      params: first.params,
    };
    expect(check!(value), `${JSON.stringify(schema)} on ${JSON.stringify(value)}`).toEqual(expected);
  }
}

/** A seeded generator, so that a failure can be replayed. */
function random(seed: number) {
  let state = seed;
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  return { next, pick, chance: (p: number) => next() < p };
}

const NAMES = ["a", "b", "c", "0", "~x", "a/b", "constructor"];
const STRINGS = ["", "a", "abc", "b", "12", "aXb", "😀😀", "\ud83d", "é"];
const TYPES = ["string", "number", "integer", "boolean", "null", "object", "array"];
const PATTERNS = ["^a", "b$", "^[a-c]+$", "\\d", "^\\p{L}+$"];

function generators(seed: number) {
  const { next, pick, chance } = random(seed);
  const subset = (items: readonly string[]) => items.filter(() => chance(0.4));
  const value = (depth: number): unknown => {
    const kind = pick(
      depth > 0 ? ["null", "bool", "int", "float", "string", "array", "object"] : ["int", "string"],
    );
    switch (kind) {
      case "null":
        return null;
      case "bool":
        return chance(0.5);
      case "int":
        return Math.floor(next() * 10) - 3;
      case "float":
        return pick([1.5, -0.5, 2.25]);
      case "string":
        return pick(STRINGS);
      case "array":
        return Array.from({ length: Math.floor(next() * 4) }, () => value(depth - 1));
      default:
        return Object.fromEntries(
          subset([...NAMES.filter((n) => n !== "constructor"), "d"]).map((n) => [n, value(depth - 1)]),
        );
    }
  };
  const schema = (depth: number): JsonSchema => {
    const out: JsonSchema = {};
    if (chance(0.7)) {
      const types = subset(TYPES);
      out.type = types.length >= 2 && chance(0.5) ? types : pick(TYPES);
    }
    if (chance(0.2)) out.const = value(1);
    if (chance(0.2)) out.enum = Array.from({ length: 1 + Math.floor(next() * 3) }, () => value(1));
    for (const keyword of ["maximum", "minimum", "exclusiveMaximum", "exclusiveMinimum"]) {
      if (chance(0.15)) out[keyword] = pick([-1, 0, 1.5, 2, 4]);
    }
    for (const keyword of ["maxLength", "minLength", "maxItems", "minItems"]) {
      if (chance(0.15)) out[keyword] = Math.floor(next() * 4);
    }
    if (chance(0.2)) out.pattern = pick(PATTERNS);
    if (chance(0.1)) out.format = pick(["email", "date-time"]);
    if (chance(0.1)) out.description = "described";
    if (chance(0.05)) out["x-mcp-header"] = "X";
    if (depth > 0 && chance(0.4)) {
      out.properties = Object.fromEntries(subset(NAMES).map((n) => [n, schema(depth - 1)]));
    }
    if (chance(0.3)) out.required = subset(NAMES);
    if (chance(0.3)) out.additionalProperties = chance(0.3);
    if (depth > 0 && chance(0.3)) out.items = schema(depth - 1);
    return out;
  };
  return { value, schema };
}

describe("simpleChecker", () => {
  it("agrees with Ajv on the schemas tools usually have", () => {
    const values = [
      undefined,
      null,
      "x",
      1,
      [],
      {},
      { message: "hi" },
      { message: 1 },
      { message: "hi", extra: true },
      { name: "ana", times: 0 },
      { name: "ana", times: 1.5 },
      { name: "ana", times: "2" },
      { gc: true },
      { gc: "yes" },
      { tags: ["a", 1] },
      { tags: ["a", "b", "c", "d"] },
    ];
    const schemas: JsonSchema[] = [
      {
        type: "object",
        properties: { message: { type: "string" } },
        required: ["message"],
        additionalProperties: false,
      },
      { type: "object", properties: { gc: { type: "boolean" } }, additionalProperties: false },
      { type: "object", properties: {} },
      {
        type: "object",
        properties: { name: { type: "string", minLength: 1 }, times: { type: "integer", minimum: 1 } },
        required: ["name"],
      },
      {
        type: "object",
        properties: {
          tags: { type: "array", items: { type: "string", enum: ["a", "b", "c", "d"] }, maxItems: 3 },
        },
      },
      { type: ["object", "null"], properties: { message: { type: ["string", "null"], description: "d" } } },
    ];
    for (const schema of schemas) expectSameAsAjv(schema, values);
  });

  it("reports the first error in Ajv's order when several keywords fail", () => {
    const cases: [JsonSchema, unknown[]][] = [
      [
        { type: "number", maximum: 0, minimum: 2, exclusiveMaximum: -1, exclusiveMinimum: 3 },
        [-2, -1, 0, 1, 2, 3, 4, "x"],
      ],
      [{ type: "string", maxLength: 1, minLength: 3, pattern: "^z" }, ["", "ab", "abcd", "z", 1]],
      [
        { type: "array", maxItems: 1, minItems: 3, items: { type: "string" } },
        [[], [1], [1, 2], [1, 2, 3, 4]],
      ],
      [
        {
          type: "object",
          required: ["a"],
          additionalProperties: false,
          properties: { b: { type: "string" } },
        },
        [{}, { c: 1 }, { b: 1 }, { a: 1, b: 1 }, { a: 1, c: 1, b: 1 }, []],
      ],
      [{ type: "string", const: "a", enum: ["b"], minLength: 5 }, [1, "a", "b", "abcdef"]],
      [{ type: "integer", enum: [1, "x"], minimum: 3 }, [1, 2, 2.5, "x", 4]],
    ];
    for (const [schema, values] of cases) expectSameAsAjv(schema, values);
  });

  it("agrees with Ajv on thousands of generated schemas and values", () => {
    for (let seed = 1; seed <= 600; seed++) {
      const { schema, value } = generators(seed);
      const generated = schema(2);
      expectSameAsAjv(
        generated,
        Array.from({ length: 12 }, () => value(3)),
      );
    }
    // 600 Ajv compilations: a second alone, far more on a loaded machine.
  }, 180_000);

  it("leaves every other schema to Ajv", () => {
    const others: JsonSchema[] = [
      { $ref: "#/$defs/a", $defs: { a: { type: "string" } } },
      { anyOf: [{ type: "string" }, { type: "number" }] },
      { type: "object", properties: { a: true } },
      { type: "object", additionalProperties: { type: "string" } },
      { type: "object", patternProperties: { "^a": { type: "string" } } },
      { type: "string", nullable: true },
      { type: "number", multipleOf: 2 },
      { type: "array", uniqueItems: true },
      { $schema: "https://json-schema.org/draft/2020-12/schema", type: "object" },
      // Malformed: Ajv rejects these when compiling, and must go on doing so.
      { type: "strin" },
      { type: [] },
      { type: ["string", "string"] },
      { type: "object", required: "a" },
      { type: "object", required: ["a", "a"] },
      { type: "object", properties: { a: { minimum: "1" } } },
      { type: "string", pattern: "(" },
      { enum: [] },
      { type: "object", description: 5 },
      { type: "string", minLength: -1 },
      { type: "object", properties: JSON.parse('{"__proto__": {"type": "string"}}') },
    ];
    for (const schema of others) expect(simpleChecker(schema), JSON.stringify(schema)).toBeUndefined();
  });
});

describe("validatorOf a JSON Schema", () => {
  it("checks a simple schema at once, and hands any other to Ajv", async () => {
    const simple = validatorOf({ type: "object", properties: { n: { type: "integer" } } });
    expect(simple({ n: 1.5 })).toEqual({ ok: false, message: "n: must be integer" });
    const viaAjv = validatorOf({
      type: "object",
      properties: { n: { $ref: "#/$defs/n" } },
      $defs: { n: { type: "integer" } },
    });
    const first = viaAjv({ n: 1.5 });
    expect(first).toBeInstanceOf(Promise);
    expect(await first).toEqual({ ok: false, message: "n: must be integer" });
    expect(viaAjv({ n: 1 })).toEqual({ ok: true, value: { n: 1 } });
  });
});
