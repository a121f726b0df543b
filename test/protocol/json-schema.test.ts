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
