import { describe, expect, it } from "vitest";
import { z } from "zod";
import { deferrableZod } from "../../src/protocol/schema/zod-export.js";
import { McpServer } from "../../src/server/index.js";
import { connectInMemory } from "../helpers/connect.js";

/** Whether zod has built the Standard Schema interface of a schema (it keeps it on the schema). */
const touched = (schema: object) => Object.hasOwn(schema, "~standard");

describe("zod schemas exported when first listed", () => {
  it("registers without exporting, then lists what the Standard JSON Schema interface gives", async () => {
    const input = z.object({
      message: z.string().min(1).describe("What to say"),
      times: z.number().int().min(1).default(1),
      tone: z.enum(["calm", "loud"]).optional(),
      tags: z.array(z.string()).nullable(),
      extra: z.record(z.string(), z.union([z.string(), z.boolean()])),
    });
    const output = z.object({ said: z.string(), at: z.tuple([z.number(), z.literal("ms")]) });
    const expected = {
      input: reference(input, "input"),
      output: reference(output, "output"),
    };
    const fresh = () =>
      z.object({
        message: z.string().min(1).describe("What to say"),
        times: z.number().int().min(1).default(1),
        tone: z.enum(["calm", "loud"]).optional(),
        tags: z.array(z.string()).nullable(),
        extra: z.record(z.string(), z.union([z.string(), z.boolean()])),
      });
    const given = fresh();
    const server = new McpServer({ name: "t", version: "1" })
      .tool("say", { description: "Says", input: given, output }, ({ message }) => ({
        said: message,
        at: [1, "ms"] as [number, "ms"],
      }))
      .tool("plain", { input: z.object({ message: z.string() }) }, ({ message }) => message);
    expect(touched(given)).toBe(false);
    const { client } = await connectInMemory(server);
    try {
      const tools = await client.listTools();
      const say = tools.find((tool) => tool.name === "say")!;
      expect(say.inputSchema).toEqual(expected.input);
      expect(say.outputSchema).toEqual(expected.output);
      expect(Object.keys(say)).toEqual(["name", "inputSchema", "description", "outputSchema"]);
      const said = await client.callTool("say", { message: "hi", extra: {}, tags: null });
      expect(said.structuredContent).toEqual({ said: "hi", at: [1, "ms"] });
      expect((await client.callTool("say", { message: "", extra: {}, tags: null })).isError).toBe(true);
    } finally {
      await client.close();
    }
  });

  it("still refuses at registration what it cannot list, exporting such schemas at once", () => {
    const server = new McpServer({ name: "t", version: "1" });
    expect(() => server.tool("date", { input: z.object({ when: z.date() }) }, () => "")).toThrow(
      "Date cannot be represented in JSON Schema",
    );
    expect(() => server.tool("big", { input: z.object({ n: z.bigint() }) }, () => "")).toThrow(/BigInt/);
    expect(() => server.tool("str", { input: z.string() as never }, () => "")).toThrow(
      'The input schema of tool "str" must describe an object (type "object")',
    );
    expect(() =>
      server.tool("map", { output: z.object({ m: z.map(z.string(), z.string()) }) }, () => ({}) as never),
    ).toThrow(/Map cannot be represented/);
  });

  it("defers only trees whose export cannot fail", () => {
    expect(deferrableZod(z.object({ a: z.string() }), "input")).toBeDefined();
    expect(deferrableZod(z.array(z.string()), "output")).toBeDefined();
    expect(deferrableZod(z.array(z.string()), "input")).toBeUndefined();
    expect(deferrableZod(z.object({ a: z.string().transform(Number) }), "input")).toBeUndefined();
    expect(deferrableZod(z.object({ a: z.number().multipleOf(2) }), "input")).toBeUndefined();
    expect(deferrableZod(z.object({ a: z.string().meta({ id: "a" }) }), "input")).toBeUndefined();
    expect(deferrableZod(z.object({ a: z.lazy(() => z.string()) }), "input")).toBeUndefined();
    const Node = z.object({
      name: z.string(),
      get children() {
        return z.array(Node);
      },
    });
    expect(deferrableZod(Node, "input")).toBeUndefined();
    expect(deferrableZod({ type: "object" }, "input")).toBeUndefined();
  });
});

/** What a schema's Standard JSON Schema interface exports, without `$schema`, as MCP lists it. */
function reference(schema: z.ZodType, direction: "input" | "output") {
  const { $schema: _ignored, ...json } = schema["~standard"].jsonSchema[direction]({
    target: "draft-2020-12",
  });
  return json;
}
