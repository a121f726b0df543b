import { Ajv } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import {
  applyDefaults,
  contentProblems,
  type ElicitationSchema,
  enumOptions,
  type PrimitiveSchemaDefinition,
  requestedSchemaProblems,
} from "../../src/protocol/features/elicitation.js";
import { loadSpecSchema, SPEC_DIR, specSchemasAvailable } from "../helpers/spec-schema-location.js";

// The official schemas: every valid schema built here must also pass them, so our subset agrees with theirs.
// Without the spec schemas these comparisons are skipped (the run says so once); our own checks still run.
const spec = specSchemasAvailable;
const ajv = new Ajv2020({ strict: false });
if (spec) ajv.addSchema(loadSpecSchema("2025-11-25"), "mcp");
const official = (pointer: string) => ajv.compile({ $ref: `mcp#/$defs/${pointer}` });
const officialRequestedSchema = spec
  ? official("ElicitRequestFormParams/properties/requestedSchema")
  : undefined;
const officialFormParams = spec ? official("ElicitRequestFormParams") : undefined;
const ajv07 = new Ajv({ strict: false });
if (spec) ajv07.addSchema(loadSpecSchema("2025-06-18"), "mcp-2025-06-18");
const officialRequestedSchema0618 = spec
  ? ajv07.compile({
      $ref: "mcp-2025-06-18#/definitions/ElicitRequest/properties/params/properties/requestedSchema",
    })
  : undefined;

const colors = ["Red", "Green", "Blue"];
const titled = [
  { const: "#FF0000", title: "Red" },
  { const: "#00FF00", title: "Green" },
  { const: "#0000FF", title: "Blue" },
];
const label = { title: "Field", description: "Some field" };

/** One property per flavour, every optional field set, each named after its 2025-11-25 definition. */
const flavours: Record<string, PrimitiveSchemaDefinition> = {
  StringSchema: {
    type: "string",
    ...label,
    minLength: 3,
    maxLength: 50,
    format: "email",
    default: "a@b.org",
  },
  NumberSchema: { type: "number", ...label, minimum: 0, maximum: 100, default: 50.5 },
  BooleanSchema: { type: "boolean", ...label, default: false },
  UntitledSingleSelectEnumSchema: { type: "string", ...label, enum: colors, default: "Red" },
  TitledSingleSelectEnumSchema: { type: "string", ...label, oneOf: titled, default: "#FF0000" },
  UntitledMultiSelectEnumSchema: {
    type: "array",
    ...label,
    minItems: 1,
    maxItems: 2,
    items: { type: "string", enum: colors },
    default: ["Red", "Green"],
  },
  TitledMultiSelectEnumSchema: {
    type: "array",
    ...label,
    minItems: 1,
    maxItems: 2,
    items: { anyOf: titled },
    default: ["#FF0000"],
  },
  LegacyTitledEnumSchema: { type: "string", ...label, enum: ["a", "b"], enumNames: ["A", "B"], default: "b" },
};

const form = (properties: Record<string, unknown>, required?: string[]): ElicitationSchema =>
  ({ type: "object", properties, ...(required ? { required } : {}) }) as ElicitationSchema;

const everything = form(
  {
    email: flavours.StringSchema,
    score: flavours.NumberSchema,
    age: { type: "integer", minimum: 18, maximum: 130 },
    agree: flavours.BooleanSchema,
    color: flavours.UntitledSingleSelectEnumSchema,
    hex: flavours.TitledSingleSelectEnumSchema,
    colors: flavours.UntitledMultiSelectEnumSchema,
    hexes: flavours.TitledMultiSelectEnumSchema,
    legacy: flavours.LegacyTitledEnumSchema,
    name: { type: "string", pattern: "^[A-Za-z ]+$" },
    site: { type: "string", format: "uri" },
    born: { type: "string", format: "date" },
    at: { type: "string", format: "date-time" },
  },
  ["email", "age", "agree"],
);

/** Valid under both revisions: no defaults but on booleans, no titled or multi-select enums. */
const valid0618: Record<string, ElicitationSchema> = {
  "spec example: simple text": form({ name: { type: "string" } }, ["name"]),
  "spec example: structured": form(
    {
      name: { type: "string", description: "Your full name" },
      email: { type: "string", format: "email", description: "Your email address" },
      age: { type: "number", minimum: 18, description: "Your age" },
    },
    ["name", "email"],
  ),
  "legacy enum and boolean default": form({
    pick: { type: "string", title: "Pick", enum: ["o1", "o2"], enumNames: ["Option 1", "Option 2"] },
    ok: { type: "boolean", default: true },
    n: { type: "integer", minimum: 1, maximum: 5 },
  }),
  "no properties": form({}),
};

const valid: Record<string, ElicitationSchema> = {
  ...valid0618,
  ...Object.fromEntries(Object.entries(flavours).map(([name, p]) => [name, form({ field: p }, ["field"])])),
  everything,
  "with $schema": {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    ...form({ a: { type: "string" } }),
  },
};

describe("requestedSchemaProblems: valid schemas", () => {
  for (const [name, schema] of Object.entries(valid)) {
    it(`accepts ${name}, as does the official 2025-11-25 schema`, () => {
      expect(requestedSchemaProblems(schema)).toEqual([]);
      expect(requestedSchemaProblems(schema, "2025-11-25")).toEqual([]);
      if (officialRequestedSchema && officialFormParams) {
        expect(officialRequestedSchema(schema), JSON.stringify(officialRequestedSchema.errors)).toBe(true);
        expect(officialFormParams({ mode: "form", message: "?", requestedSchema: schema })).toBe(true);
      }
    });
  }

  for (const [definition, property] of Object.entries(flavours)) {
    it(`builds ${definition} as the official definition has it`, (ctx) => {
      ctx.skip(!spec, `no MCP spec schemas in ${SPEC_DIR}: set MCP_SPEC_DIR`);
      const check = official(definition);
      expect(check(property), JSON.stringify(check.errors)).toBe(true);
    });
  }

  for (const [name, schema] of Object.entries(valid0618)) {
    it(`accepts ${name} under 2025-06-18, as does the official 2025-06-18 schema`, () => {
      expect(requestedSchemaProblems(schema, "2025-06-18")).toEqual([]);
      if (officialRequestedSchema0618) {
        expect(officialRequestedSchema0618(schema), JSON.stringify(officialRequestedSchema0618.errors)).toBe(
          true,
        );
      }
    });
  }

  it("tolerates additionalProperties: false at the top (SDKs emit it from validators)", () => {
    expect(
      requestedSchemaProblems({ ...form({ a: { type: "string" } }), additionalProperties: false }),
    ).toEqual([]);
  });

  it("treats unknown later revisions like 2025-11-25", () => {
    expect(requestedSchemaProblems(everything, "2026-07-28")).toEqual([]);
  });
});

describe("requestedSchemaProblems: invalid schemas", () => {
  const cases: [string, unknown, string[], boolean][] = [
    // [what, schema, problems, whether the official schema rejects it too]
    [
      "nested object",
      form({ age: { type: "object" } }),
      ['property "age": type "object" is not allowed (only string, number, integer, boolean and enums)'],
      true,
    ],
    [
      "array of free strings",
      form({ tags: { type: "array", items: { type: "string" } } }),
      [
        'property "tags": arrays are only allowed as multi-select enums (items with enum, or anyOf of {const, title})',
      ],
      true,
    ],
    [
      "array of objects",
      form({ rows: { type: "array", items: { type: "object", properties: {} } } }),
      [
        'property "rows": arrays are only allowed as multi-select enums (items with enum, or anyOf of {const, title})',
      ],
      true,
    ],
    [
      "$ref",
      form({ a: { $ref: "#/$defs/A" } }),
      [
        'property "a": keyword "$ref" is not allowed',
        'property "a": type is missing (only string, number, integer, boolean and enums)',
      ],
      true,
    ],
    [
      "$ref next to a type",
      form({ a: { type: "string", $ref: "#/x" } }),
      ['property "a": keyword "$ref" is not allowed'],
      false,
    ],
    [
      "composition",
      form({ a: { type: "string", anyOf: [{ type: "string" }] } }),
      ['property "a": keyword "anyOf" is not allowed'],
      false,
    ],
    [
      "unsupported format",
      form({ ip: { type: "string", format: "ipv4" } }),
      ['property "ip": format "ipv4" is not supported (only email, uri, date, date-time)'],
      true,
    ],
    [
      "required name that is not a property",
      form({ a: { type: "string" } }, ["a", "b"]),
      ['required "b" is not a property'],
      false,
    ],
    [
      "string default of the wrong type",
      form({ s: { type: "string", default: 5 } }),
      ['property "s": default must be a string'],
      true,
    ],
    [
      "number default of the wrong type",
      form({ n: { type: "number", default: "5" } }),
      ['property "n": default must be a number'],
      true,
    ],
    [
      "fractional integer default",
      form({ n: { type: "integer", default: 1.5 } }),
      ['property "n": default must be an integer'],
      false,
    ],
    [
      "boolean default of the wrong type",
      form({ b: { type: "boolean", default: "yes" } }),
      ['property "b": default must be a boolean'],
      true,
    ],
    [
      "default out of range",
      form({ n: { type: "number", minimum: 1, maximum: 5, default: 9 } }),
      ['property "n": default must be at most 5'],
      false,
    ],
    [
      "default too short",
      form({ s: { type: "string", minLength: 3, default: "ab" } }),
      ['property "s": default must be at least 3 characters'],
      false,
    ],
    [
      "enum default not an option",
      form({ c: { type: "string", enum: colors, default: "Purple" } }),
      ['property "c": default "Purple" is not one of the options'],
      false,
    ],
    [
      "titled enum default not an option",
      form({ c: { type: "string", oneOf: titled, default: "Red" } }),
      ['property "c": default "Red" is not one of the options'],
      false,
    ],
    [
      "multi-select default not among the options",
      form({ c: { type: "array", items: { type: "string", enum: colors }, default: ["Red", "Pink"] } }),
      ['property "c": default "Pink" is not one of the options'],
      false,
    ],
    [
      "multi-select default beyond maxItems",
      form({ c: { type: "array", maxItems: 1, items: { anyOf: titled }, default: ["#FF0000", "#00FF00"] } }),
      ['property "c": default must have at most 1 items'],
      false,
    ],
    [
      "enum of numbers",
      form({ c: { type: "string", enum: [1, 2] } }),
      ['property "c": enum must be a non-empty array of strings'],
      false, // a plain StringSchema to the official schema, which ignores other keys
    ],
    [
      "titled option without a title",
      form({ c: { type: "string", oneOf: [{ const: "a" }] } }),
      ['property "c": oneOf must be a non-empty array of {const, title} strings'],
      false, // a plain StringSchema to the official schema, which ignores other keys
    ],
    [
      "enumNames of the wrong length",
      form({ c: { type: "string", enum: ["a", "b"], enumNames: ["A"] } }),
      ['property "c": enumNames must be strings, one per enum value'],
      false,
    ],
    [
      "enum on a number",
      form({ n: { type: "number", enum: [1, 2] } }),
      ['property "n": keyword "enum" is only allowed on string enums'],
      false,
    ],
    [
      "minLength above maxLength",
      form({ s: { type: "string", minLength: 5, maxLength: 2 } }),
      ['property "s": minLength is greater than maxLength'],
      false,
    ],
    [
      "negative minItems",
      form({ c: { type: "array", minItems: -1, items: { type: "string", enum: colors } } }),
      ['property "c": minItems must be a non-negative integer'],
      false,
    ],
    [
      "nullable type",
      form({ s: { type: ["string", "null"] } }),
      [
        'property "s": type ["string","null"] is not allowed (only string, number, integer, boolean and enums)',
      ],
      true,
    ],
    ["not an object", "nope", ["requestedSchema must be an object"], true],
    [
      "top-level type other than object",
      { type: "array", properties: {} },
      ['requestedSchema: type must be "object", not "array"'],
      true,
    ],
    ["missing properties", { type: "object" }, ["requestedSchema: properties must be an object"], true],
    [
      "top-level $defs",
      { ...form({}), $defs: { A: { type: "string" } } },
      ['requestedSchema: keyword "$defs" is not allowed'],
      false,
    ],
  ];

  for (const [what, schema, problems, officialRejects] of cases) {
    it(`reports ${what}`, () => {
      expect(requestedSchemaProblems(schema)).toEqual(problems);
      if (officialRequestedSchema) expect(officialRequestedSchema(schema)).toBe(!officialRejects);
    });
  }

  it("reports what 2025-06-18 lacks: defaults but on booleans, titled and multi-select enums", () => {
    expect(requestedSchemaProblems(everything, "2025-06-18")).toEqual([
      'property "email": default is only allowed on booleans in revision 2025-06-18',
      'property "score": default is only allowed on booleans in revision 2025-06-18',
      'property "color": default is only allowed on booleans in revision 2025-06-18',
      'property "hex": titled enums (oneOf) need revision 2025-11-25',
      'property "hex": default is only allowed on booleans in revision 2025-06-18',
      'property "colors": multi-select enums (type "array") need revision 2025-11-25',
      'property "hexes": multi-select enums (type "array") need revision 2025-11-25',
      'property "legacy": default is only allowed on booleans in revision 2025-06-18',
    ]);
    // The official 2025-06-18 schema can only tell multi-select: a titled enum passes it as a plain StringSchema.
    if (officialRequestedSchema0618) {
      expect(officialRequestedSchema0618(form({ hex: flavours.TitledSingleSelectEnumSchema }))).toBe(true);
      expect(officialRequestedSchema0618(form({ colors: flavours.UntitledMultiSelectEnumSchema }))).toBe(
        false,
      );
    }
  });

  it("reports revisions without elicitation", () => {
    expect(requestedSchemaProblems(form({}), "2025-03-26")).toEqual([
      "elicitation/create does not exist in revision 2025-03-26",
    ]);
  });
});

describe("applyDefaults", () => {
  it("fills in every default the content lacks", () => {
    expect(applyDefaults(everything, undefined)).toEqual({
      email: "a@b.org",
      score: 50.5,
      agree: false,
      color: "Red",
      hex: "#FF0000",
      colors: ["Red", "Green"],
      hexes: ["#FF0000"],
      legacy: "b",
    });
  });

  it("never overwrites given values, falsy ones included, and leaves its inputs alone", () => {
    const content = { email: "x@y.z", agree: true, score: 0, color: "", extra: 1 };
    const filled = applyDefaults(everything, content);
    expect(filled).toMatchObject(content);
    expect(filled.hex).toBe("#FF0000");
    expect(content).toEqual({ email: "x@y.z", agree: true, score: 0, color: "", extra: 1 });
    (filled.colors as string[]).push("Blue");
    expect(flavours.UntitledMultiSelectEnumSchema!.default).toEqual(["Red", "Green"]);
  });

  it("makes a valid answer once the required fields without defaults are given", () => {
    expect(contentProblems(everything, applyDefaults(everything, { age: 40 }))).toEqual([]);
  });
});

describe("contentProblems", () => {
  const answer = {
    email: "octocat@github.com",
    score: 12.5,
    age: 30,
    agree: true,
    color: "Blue",
    hex: "#00FF00",
    colors: ["Red"],
    hexes: ["#FF0000", "#0000FF"],
    legacy: "a",
    name: "Mona Lisa",
    site: "https://github.com/octocat",
    born: "2008-02-29",
    at: "2025-11-25T12:30:00.5+01:00",
  };

  it("accepts a complete, fitting answer", () => {
    expect(contentProblems(everything, answer)).toEqual([]);
    expect(contentProblems(form({ a: { type: "string" } }), undefined)).toEqual([]);
  });

  const cases: [string, Record<string, unknown>, string][] = [
    ["undeclared field", { nickname: "mo" }, 'field "nickname" is not in the requested schema'],
    ["string for a number", { score: "12" }, 'field "score": must be a number'],
    ["fraction for an integer", { age: 30.5 }, 'field "age": must be an integer'],
    ["number below minimum", { age: 17 }, 'field "age": must be at least 18'],
    ["number above maximum", { score: 101 }, 'field "score": must be at most 100'],
    ["string for a boolean", { agree: "yes" }, 'field "agree": must be a boolean'],
    ["too short", { email: "a@" }, 'field "email": must be at least 3 characters'],
    ["too long", { email: `${"a".repeat(50)}@b.org` }, 'field "email": must be at most 50 characters'],
    ["bad email", { email: "octocat" }, 'field "email": is not a valid email'],
    ["bad uri", { site: "github.com/octocat" }, 'field "site": is not a valid uri'],
    ["bad date", { born: "2025-02-30" }, 'field "born": is not a valid date'],
    ["bad date-time", { at: "2025-11-25 12:30" }, 'field "at": is not a valid date-time'],
    ["pattern mismatch", { name: "R2-D2" }, 'field "name": does not match pattern ^[A-Za-z ]+$'],
    [
      "single-select value not an option",
      { color: "Purple" },
      'field "color": "Purple" is not one of the options',
    ],
    [
      "titled single-select takes the const, not the title",
      { hex: "Red" },
      'field "hex": "Red" is not one of the options',
    ],
    [
      "legacy enum takes the value, not the name",
      { legacy: "A" },
      'field "legacy": "A" is not one of the options',
    ],
    ["multi-select not an array", { colors: "Red" }, 'field "colors": must be an array of strings'],
    [
      "multi-select item not an option",
      { hexes: ["#FFFFFF"] },
      'field "hexes": "#FFFFFF" is not one of the options',
    ],
    ["multi-select below minItems", { colors: [] }, 'field "colors": must have at least 1 items'],
    ["multi-select above maxItems", { colors: colors }, 'field "colors": must have at most 2 items'],
  ];
  for (const [what, change, problem] of cases) {
    it(`reports ${what}`, () => {
      expect(contentProblems(everything, { ...answer, ...change })).toEqual([problem]);
    });
  }

  it("reports missing required fields", () => {
    const { email: _e, agree: _a, ...rest } = answer;
    expect(contentProblems(everything, rest)).toEqual([
      'field "email" is required',
      'field "agree" is required',
    ]);
  });

  it("reports content that is not an object", () => {
    expect(contentProblems(everything, ["a"])).toEqual(["content must be an object"]);
    expect(contentProblems(everything, null)).toEqual(["content must be an object"]);
  });

  it("accepts fractions for type number, which the official ElicitResult JSON schema calls integer", () => {
    // schema.ts says `string | number | boolean | string[]`; the generated JSON says "integer": we follow schema.ts.
    if (spec) {
      const result = official("ElicitResult");
      expect(result({ action: "accept", content: { score: 12.5 } })).toBe(false);
      expect(result({ action: "accept", content: { ...answer, score: 12 } })).toBe(true);
    }
    expect(contentProblems(everything, answer)).toEqual([]);
  });
});

describe("enumOptions", () => {
  const colorOptions = colors.map((value) => ({ value }));
  const titledOptions = titled.map((o) => ({ value: o.const, title: o.title }));
  it("lists the options of every enum flavour", () => {
    expect(enumOptions(flavours.UntitledSingleSelectEnumSchema!)).toEqual(colorOptions);
    expect(enumOptions(flavours.TitledSingleSelectEnumSchema!)).toEqual(titledOptions);
    expect(enumOptions(flavours.UntitledMultiSelectEnumSchema!)).toEqual(colorOptions);
    expect(enumOptions(flavours.TitledMultiSelectEnumSchema!)).toEqual(titledOptions);
    expect(enumOptions(flavours.LegacyTitledEnumSchema!)).toEqual([
      { value: "a", title: "A" },
      { value: "b", title: "B" },
    ]);
  });

  it("is undefined for other properties", () => {
    for (const name of ["StringSchema", "NumberSchema", "BooleanSchema"]) {
      expect(enumOptions(flavours[name]!)).toBeUndefined();
    }
  });
});
