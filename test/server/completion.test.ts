/**
 * Argument completion as the server role answers it: prompt arguments and template variables, the
 * arguments already chosen, the spec's cap of 100 values, the capability and the errors, against an
 * `McpServer` built here.
 */
import { describe, expect, it } from "vitest";
import { McpServer } from "../../src/server/index.js";
import { inMemorySessions, rejection, stillAlive } from "../helpers/connect.js";

const connect = inMemorySessions();
const ERAS = ["2025-11-25", "2026-07-28"] as const;

const startingWith = (values: readonly string[], prefix: string): string[] =>
  values.filter((value) => value.startsWith(prefix));

const CATALOG: Record<string, string[]> = {
  fruits: ["apple", "apricot", "banana"],
  vegetables: ["artichoke", "asparagus", "carrot"],
};

/** A prompt whose second argument's completions follow the first, and a catalog template. */
function completingServer(): McpServer {
  return new McpServer({ name: "t", version: "1" })
    .prompt(
      "with_arguments",
      {
        arguments: {
          arg1: {
            required: true,
            complete: (value) => startingWith(["test", "testValue1", "testing", "value"], value),
          },
          arg2: {
            required: true,
            complete: (value, { arguments: chosen }) => {
              const derived = chosen.arg1 === undefined ? [] : [`${chosen.arg1}-a`, `${chosen.arg1}-b`];
              return startingWith([...derived, "testValue2"], value);
            },
          },
          arg3: {},
        },
      },
      () => "never",
    )
    .resourceTemplate("test://template/{id}/data", { name: "template" }, () => "data", {
      complete: { id: (value) => startingWith(["1", "123", "2"], value) },
    })
    .resourceTemplate("test://catalog/{category}/{item}", { name: "catalog" }, () => "item", {
      complete: {
        category: (value) => startingWith(Object.keys(CATALOG), value),
        item: (value, { arguments: chosen }) => {
          const items =
            chosen.category === undefined
              ? Object.values(CATALOG).flat().sort()
              : (CATALOG[chosen.category] ?? []);
          return startingWith(items, value);
        },
      },
    });
}

const prompt = { type: "ref/prompt", name: "with_arguments" } as const;

describe("McpServer completion", () => {
  it.each(ERAS)("completes prompt arguments, the second from the first (%s)", async (protocolVersion) => {
    const { client } = await connect(completingServer(), { protocolVersion });
    expect(await client.complete(prompt, { name: "arg1", value: "test" })).toEqual({
      values: ["test", "testValue1", "testing"],
    });
    expect(await client.complete(prompt, { name: "arg1", value: "zzz" })).toEqual({ values: [] });
    expect(await client.complete(prompt, { name: "arg2", value: "" })).toEqual({ values: ["testValue2"] });
    expect(await client.complete(prompt, { name: "arg2", value: "" }, { arg1: "red" })).toEqual({
      values: ["red-a", "red-b", "testValue2"],
    });
    expect(await client.complete(prompt, { name: "arg2", value: "red-b" }, { arg1: "red" })).toEqual({
      values: ["red-b"],
    });
    // An argument without a completer has no suggestions.
    expect(await client.complete(prompt, { name: "arg3", value: "x" })).toEqual({ values: [] });
  });

  it.each(ERAS)(
    "completes template variables, using the variables already chosen (%s)",
    async (protocolVersion) => {
      const { client } = await connect(completingServer(), { protocolVersion });
      const template = { type: "ref/resource", uri: "test://template/{id}/data" } as const;
      expect(await client.complete(template, { name: "id", value: "1" })).toEqual({ values: ["1", "123"] });
      const catalog = { type: "ref/resource", uri: "test://catalog/{category}/{item}" } as const;
      expect(await client.complete(catalog, { name: "category", value: "v" })).toEqual({
        values: ["vegetables"],
      });
      expect(await client.complete(catalog, { name: "item", value: "a" })).toEqual({
        values: ["apple", "apricot", "artichoke", "asparagus"],
      });
      expect(await client.complete(catalog, { name: "item", value: "a" }, { category: "fruits" })).toEqual({
        values: ["apple", "apricot"],
      });
      expect(
        await client.complete(catalog, { name: "item", value: "a" }, { category: "vegetables" }),
      ).toEqual({
        values: ["artichoke", "asparagus"],
      });
    },
  );

  it("sends at most 100 values, saying how many there were, and passes a completer's total on", async () => {
    const many = Array.from({ length: 250 }, (_, i) => `v${i}`);
    const server = new McpServer({ name: "t", version: "1" })
      .prompt("many", { arguments: { x: { complete: () => many } } }, () => "never")
      .prompt(
        "counted",
        { arguments: { x: { complete: () => ({ values: ["a"], total: 7, hasMore: true }) } } },
        () => "never",
      );
    const { client } = await connect(server);
    expect(await client.complete({ type: "ref/prompt", name: "many" }, { name: "x", value: "" })).toEqual({
      values: many.slice(0, 100),
      total: 250,
      hasMore: true,
    });
    expect(await client.complete({ type: "ref/prompt", name: "counted" }, { name: "x", value: "" })).toEqual({
      values: ["a"],
      total: 7,
      hasMore: true,
    });
  });

  it("declares the completions capability only when something completes", async () => {
    const { client: completing } = await connect(completingServer());
    expect(completing.capabilities.completions).toEqual({});
    const plain = new McpServer({ name: "t", version: "1" }).prompt("p", { arguments: { a: {} } }, () => "p");
    const { client: without } = await connect(plain);
    expect(without.capabilities.completions).toBeUndefined();
    const asked = new McpServer({ name: "t", version: "1" }, { capabilities: { completions: true } });
    const { client: declared } = await connect(asked);
    expect(declared.capabilities.completions).toEqual({});
  });

  it.each(ERAS)(
    "answers an unknown reference or a malformed request with -32602 (%s)",
    async (protocolVersion) => {
      const { client } = await connect(completingServer(), { protocolVersion });
      const template = await rejection(
        client.complete({ type: "ref/resource", uri: "test://x/{y}" }, { name: "y", value: "" }),
      );
      expect(template.code).toBe(-32602);
      expect(template.message).toBe("Unknown resource template: test://x/{y}");
      expect(template.data).toEqual({ uri: "test://x/{y}" });
      await stillAlive(client);
      const unknownPrompt = await rejection(
        client.complete({ type: "ref/prompt", name: "no_such_prompt" }, { name: "a", value: "" }),
      );
      expect(unknownPrompt.code).toBe(-32602);
      expect(unknownPrompt.message).toBe("Unknown prompt: no_such_prompt");
      await stillAlive(client);
    },
  );
});
