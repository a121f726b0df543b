import { describe, expect, it } from "vitest";
import { z } from "zod";
import { exportJsonSchema, intern } from "../../src/protocol/schema/json-schema.js";

describe("intern", () => {
  it("gives equal schemas one object, a copy of its own", () => {
    const given = { type: "object", properties: { a: { type: "string" } }, required: ["a"] };
    const first = intern(given);
    expect(first).toEqual(given);
    expect(first).not.toBe(given);
    expect(intern(structuredClone(given))).toBe(first);
    given.required.push("b");
    expect(first.required).toEqual(["a"]);
  });

  it("keeps schemas with another JSON text apart, key order included", () => {
    const a = intern({ type: "object", properties: { a: { type: "string" } } });
    expect(intern({ type: "object", properties: { a: { type: "number" } } })).not.toBe(a);
    expect(intern({ properties: { a: { type: "string" } }, type: "object" })).not.toBe(a);
  });

  it("interns what zod exports for equal schemas", () => {
    const one = exportJsonSchema(z.object({ message: z.string() }), "input");
    const two = exportJsonSchema(z.object({ message: z.string() }), "input");
    expect(one).not.toBe(two);
    expect(intern(one)).toBe(intern(two));
    expect(one.$schema).toBeUndefined();
  });
});

describe("exportJsonSchema", () => {
  /** A Standard Schema without JSON Schema export, as zod 3 and 4.0–4.1 make them. */
  const standardOnly = (vendor: string) => ({
    "~standard": { version: 1 as const, vendor, validate: (value: unknown) => ({ value }) },
  });

  it("names the zod version needed when a zod schema cannot export JSON Schema", () => {
    expect(() => exportJsonSchema(standardOnly("zod"), "input")).toThrow(
      "The zod schema cannot export JSON Schema, which MCP needs to describe it: mcpkit needs zod >= 4.2",
    );
  });

  it("says what would do for other libraries", () => {
    expect(() => exportJsonSchema(standardOnly("valibot"), "input")).toThrow(
      /^The valibot schema cannot export JSON Schema.*implements Standard JSON Schema.*or plain JSON Schema$/,
    );
  });
});
