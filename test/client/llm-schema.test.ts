import { describe, expect, it } from "vitest";
import { z } from "zod";
import { argumentsFromStrict, type LlmProvider, schemaForLlm } from "../../src/client/index.js";

type Schema = Record<string, unknown>;

/** A schema as servers send them: `$schema`, `$defs`, a cycle, refs with siblings, optional fields. */
function sample(): Schema {
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
    title: "Search",
    properties: {
      query: { type: "string", minLength: 1, description: "What to look for", examples: ["cats"] },
      limit: { type: "integer", exclusiveMinimum: 0, maximum: 100, default: 10 },
      mode: { const: "fast" },
      site: { type: ["string", "null"], format: "uri" },
      since: { type: "string", format: "date-time" },
      tags: { type: "array" },
      level: { enum: [1, 2, 3] },
      filter: { $ref: "#/$defs/Filter", description: "Narrows the results" },
      extra: { type: "object", additionalProperties: { type: "string" } },
    },
    required: ["query", "query", "ghost"],
    additionalProperties: false,
    $defs: {
      Filter: {
        type: "object",
        properties: {
          field: { type: "string" },
          and: { type: "array", items: { $ref: "#/$defs/Filter" } },
        },
        required: ["field"],
      },
    },
  };
}

/** Every key used anywhere as a schema keyword (not as a property name). */
function keywords(schema: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) for (const item of schema) keywords(item, found);
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return found;
  for (const [key, value] of Object.entries(schema)) {
    found.add(key);
    if (key === "properties")
      for (const property of Object.values(value as Schema)) keywords(property, found);
    else if (key !== "enum" && key !== "const" && key !== "default" && key !== "examples")
      keywords(value, found);
  }
  return found;
}

const PROVIDERS: LlmProvider[] = ["openai", "anthropic", "gemini", "generic"];

describe("schemaForLlm, every provider", () => {
  it.each(PROVIDERS)("%s: inlines $ref/$defs, cuts the cycle, and never changes the input", (provider) => {
    const input = sample();
    const before = structuredClone(input);
    const out = schemaForLlm(input, provider) as any;
    expect(input).toEqual(before);
    const used = keywords(out);
    for (const key of ["$ref", "$defs", "$schema"]) expect(used.has(key)).toBe(false);
    expect(out.type).toBe("object");
    expect(out.properties.filter.description).toBe("Narrows the results");
    expect(out.properties.filter.properties.field).toEqual({ type: "string" });
    // The recursion is cut where the ref repeats: any value there, its description kept.
    expect(out.properties.filter.properties.and.type).toBe("array");
    expect(Object.keys(out.properties.filter.properties.and.items)).toEqual([]);
    expect(out.properties.tags.items).toBeDefined();
    out.properties.query.description = "changed";
    expect(input).toEqual(before);
  });

  it.each(PROVIDERS)("%s: folds a top-level anyOf/oneOf/allOf into one object schema", (provider) => {
    const union = {
      anyOf: [
        { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
        {
          type: "object",
          properties: { name: { type: "string" }, id: { type: "string" } },
          required: ["id"],
        },
      ],
    };
    const out = schemaForLlm(union, provider) as any;
    expect(out.anyOf).toBeUndefined();
    expect(out.type).toBe("object");
    expect(Object.keys(out.properties)).toEqual(["id", "name"]);
    if (provider !== "openai") expect(out.required).toEqual(["id"]);
    const constraint = schemaForLlm(
      {
        type: "object",
        properties: { a: { type: "string" }, b: { type: "string" } },
        oneOf: [{ required: ["a"] }, { required: ["b"] }],
      },
      provider,
    ) as any;
    expect(constraint.oneOf).toBeUndefined();
    expect(constraint.required ?? []).toEqual([]);
    const merged = schemaForLlm(
      {
        allOf: [
          { properties: { a: { type: "string" } }, required: ["a"] },
          { properties: { b: { type: "number" } } },
        ],
      },
      provider,
    ) as any;
    expect(Object.keys(merged.properties)).toEqual(["a", "b"]);
  });

  it("bounds how deep refs expand inside one another", () => {
    const chain = {
      type: "object",
      properties: { v: { $ref: "#/$defs/A" } },
      $defs: {
        A: { type: "object", properties: { b: { $ref: "#/$defs/B" } } },
        B: { type: "object", properties: { c: { $ref: "#/$defs/C" } } },
        C: { type: "string" },
      },
    };
    expect((schemaForLlm(chain, "generic") as any).properties.v.properties.b.properties.c).toEqual({
      type: "string",
    });
    const shallow = schemaForLlm(chain, "generic", { maxRefDepth: 2 }) as any;
    expect(shallow.properties.v.properties.b.properties.c).toEqual({});
  });

  it("takes what zod exports", () => {
    const schema = z.toJSONSchema(
      z.object({ when: z.iso.datetime(), note: z.string().optional() }),
    ) as Schema;
    for (const provider of PROVIDERS) {
      expect((schemaForLlm(schema, provider) as any).properties.when.type).toBe("string");
    }
  });
});

describe("schemaForLlm, per provider", () => {
  it("openai and anthropic keep the JSON Schema they accept; generic too", () => {
    for (const provider of ["openai", "anthropic", "generic"] as const) {
      const out = schemaForLlm(sample(), provider) as any;
      expect(out.additionalProperties).toBe(false);
      expect(out.properties.query).toMatchObject({ minLength: 1, examples: ["cats"] });
      expect(out.properties.site.type).toEqual(["string", "null"]);
      expect(out.properties.limit).toMatchObject({ exclusiveMinimum: 0, default: 10 });
      expect(out.properties.extra.additionalProperties).toEqual({ type: "string" });
      expect(out.properties.tags.items).toEqual({});
      expect(out.required).toEqual(["query", "ghost"]);
    }
  });

  it("gemini: only the OpenAPI subset its `parameters` accept", () => {
    const out = schemaForLlm(sample(), "gemini") as any;
    const allowed = [
      ...["type", "format", "description", "nullable", "enum", "items", "properties", "required"],
      ...["anyOf", "minItems", "maxItems", "minimum", "maximum"],
    ];
    for (const key of keywords(out)) expect(allowed).toContain(key);
    expect(out.required).toEqual(["query"]);
    expect(out.properties.limit).toEqual({ type: "integer", minimum: 0, maximum: 100 });
    expect(out.properties.mode).toEqual({ type: "string", enum: ["fast"] });
    expect(out.properties.site).toEqual({ type: "string", nullable: true });
    expect(out.properties.since).toEqual({ type: "string", format: "date-time" });
    expect(out.properties.level).toEqual({ type: "integer" });
    expect(out.properties.extra).toEqual({ type: "object" });
    expect(out.properties.filter.required).toEqual(["field"]);
    const nullable = schemaForLlm(
      {
        type: "object",
        properties: {
          a: { anyOf: [{ type: "string" }, { type: "null" }], description: "A" },
          b: { oneOf: [{ type: "string" }, { type: "number" }] },
          c: { type: ["string", "array"], items: { type: "string" } },
          d: { type: "array", prefixItems: [{ type: "string" }] },
        },
      },
      "gemini",
    ) as any;
    expect(nullable.properties.a).toEqual({ type: "string", nullable: true, description: "A" });
    expect(nullable.properties.b).toEqual({ anyOf: [{ type: "string" }, { type: "number" }] });
    expect(nullable.properties.c).toEqual({
      anyOf: [{ type: "string" }, { type: "array", items: { type: "string" } }],
    });
    expect(nullable.properties.d).toEqual({ type: "array", items: { type: "string" } });
    expect(schemaForLlm({ type: "object", properties: {} }, "gemini")).toEqual({ type: "object" });
  });

  it("openai strict: closed objects, every property required, optional ones nullable", () => {
    const input = {
      type: "object",
      properties: {
        query: { type: "string", minLength: 1, format: "uri" },
        email: { type: "string", format: "email" },
        limit: { type: "integer", default: 10 },
        kind: { enum: ["a", "b"] },
        filter: {
          type: "object",
          properties: {
            field: { type: "string" },
            value: { oneOf: [{ type: "string" }, { type: "number" }] },
          },
          required: ["field"],
        },
      },
      required: ["query"],
    };
    const out = schemaForLlm(input, "openai", { strict: true }) as any;
    expect(out.additionalProperties).toBe(false);
    expect(out.required).toEqual(["query", "email", "limit", "kind", "filter"]);
    expect(out.properties.query).toEqual({ type: "string" });
    expect(out.properties.email).toEqual({ type: ["string", "null"], format: "email" });
    expect(out.properties.limit).toEqual({ type: ["integer", "null"] });
    expect(out.properties.kind).toEqual({ anyOf: [{ enum: ["a", "b"] }, { type: "null" }] });
    expect(out.properties.filter.type).toEqual(["object", "null"]);
    expect(out.properties.filter.additionalProperties).toBe(false);
    expect(out.properties.filter.required).toEqual(["field", "value"]);
    expect(out.properties.filter.properties.value).toEqual({
      anyOf: [{ type: "string" }, { type: "number" }, { type: "null" }],
    });
    expect(schemaForLlm({ type: "object" }, "openai", { strict: true })).toEqual({
      type: "object",
      properties: {},
      required: [],
      additionalProperties: false,
    });
    expect(() => schemaForLlm(sample(), "openai", { strict: true })).toThrow(
      /^\(root\)\.properties\.tags\.items: a value of any type cannot be expressed in OpenAI strict mode$/,
    );
    expect(() =>
      schemaForLlm({ type: "object", properties: { m: { type: "object" } } }, "openai", { strict: true }),
    ).toThrow(/properties\.m: an object with arbitrary keys/);
    const sent = { query: "q", email: null, limit: null, kind: "a", filter: { field: "f", value: null } };
    expect(argumentsFromStrict(sent, input)).toEqual({ query: "q", kind: "a", filter: { field: "f" } });
  });
});
