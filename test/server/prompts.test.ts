/**
 * Prompts as the server role serves them: listing with arguments, pages, what a handler may return,
 * the argument checks and the errors a client meets, against an `McpServer` built here.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { ListPromptsResult } from "../../src/protocol/index.js";
import { embeddedResource, image, McpServer, text } from "../../src/server/index.js";
import { inMemorySessions, rejection, stillAlive } from "../helpers/connect.js";

const connect = inMemorySessions();
const ERAS = ["2025-11-25", "2026-07-28"] as const;
const ICON = { src: "data:image/png;base64,AAAA", mimeType: "image/png", sizes: ["1x1"] };

describe("McpServer prompts: lists", () => {
  it("lists prompts with their arguments, from specs or from a schema", async () => {
    const server = new McpServer({ name: "t", version: "1" })
      .prompt("simple", { title: "Simple", description: "No arguments", icons: [ICON] }, () => "hi")
      .prompt(
        "with_arguments",
        {
          description: "Two arguments",
          arguments: {
            arg1: { title: "First", description: "First argument", required: true },
            arg2: { description: "Second argument" },
          },
        },
        ({ arg1 }) => `arg1=${arg1}`,
      )
      .prompt(
        "with_schema",
        { arguments: z.object({ city: z.string().describe("Where"), units: z.string().optional() }) },
        ({ city }) => city,
      );
    const { client } = await connect(server);
    expect(client.capabilities.prompts).toEqual({ listChanged: true });
    expect(await client.listPrompts()).toEqual([
      { name: "simple", title: "Simple", description: "No arguments", icons: [ICON] },
      {
        name: "with_arguments",
        description: "Two arguments",
        arguments: [
          { name: "arg1", title: "First", description: "First argument", required: true },
          { name: "arg2", description: "Second argument" },
        ],
      },
      {
        name: "with_schema",
        arguments: [{ name: "city", description: "Where", required: true }, { name: "units" }],
      },
    ]);
  });

  it.each(ERAS)(
    "pages prompts/list in name order and rejects a forged cursor (%s)",
    async (protocolVersion) => {
      const server = new McpServer({ name: "t", version: "1" }, { pageSize: 2 });
      for (const name of ["e", "c", "a", "d", "b"]) server.prompt(name, {}, () => name);
      const { client } = await connect(server, { protocolVersion });
      const first = await client.request<ListPromptsResult>("prompts/list", {});
      expect(first.prompts.map((p) => p.name)).toEqual(["a", "b"]);
      expect(first.nextCursor).toBeTypeOf("string");
      expect((await client.listPrompts()).map((p) => p.name)).toEqual(["a", "b", "c", "d", "e"]);
      const forged = await rejection(client.request("prompts/list", { cursor: "!!not a cursor" }));
      expect(forged.code).toBe(-32602);
      await stillAlive(client);
    },
  );

  it("tells connected clients when prompts are added or removed, and refuses a name twice", async () => {
    const server = new McpServer({ name: "t", version: "1" }).prompt("a", {}, () => "a");
    const { client, log } = await connect(server);
    server.prompt("b", {}, () => "b");
    expect(server.removePrompt("a")).toBe(true);
    expect(server.removePrompt("a")).toBe(false);
    expect((await client.listPrompts()).map((p) => p.name)).toEqual(["b"]);
    const changes = log.entries.filter(
      (e) => (e.message as { method?: string }).method === "notifications/prompts/list_changed",
    );
    expect(changes.length).toBeGreaterThan(0);
    expect(() => server.prompt("b", {}, () => "again")).toThrow('A prompt named "b" is already registered');
    expect(() => server.prompt("c", { arguments: { x: {} }, complete: { y: () => [] } }, () => "c")).toThrow(
      'Prompt "c" has no argument "y" to complete',
    );
  });
});

describe("McpServer prompts: get", () => {
  it.each(ERAS)(
    "shapes what a handler returns, with the prompt's description (%s)",
    async (protocolVersion) => {
      const server = new McpServer({ name: "t", version: "1" })
        .prompt("string", { description: "From a string" }, () => "This is a simple prompt.")
        .prompt("messages", { description: "From messages" }, () => [
          { role: "user", content: image("AAAA", "image/png") },
          { role: "assistant", content: text("Seen.") },
        ])
        .prompt("whole", { description: "Not this one" }, () => ({
          description: "Its own",
          messages: [
            {
              role: "user",
              content: embeddedResource({ uri: "test://r", mimeType: "text/plain", text: "embedded" }),
            },
          ],
        }));
      const { client } = await connect(server, { protocolVersion });
      expect(await client.getPrompt("string")).toMatchObject({
        description: "From a string",
        messages: [{ role: "user", content: { type: "text", text: "This is a simple prompt." } }],
      });
      expect(await client.getPrompt("messages")).toMatchObject({
        description: "From messages",
        messages: [
          { role: "user", content: { type: "image", data: "AAAA", mimeType: "image/png" } },
          { role: "assistant", content: { type: "text", text: "Seen." } },
        ],
      });
      expect(await client.getPrompt("whole")).toMatchObject({
        description: "Its own",
        messages: [
          {
            role: "user",
            content: {
              type: "resource",
              resource: { uri: "test://r", mimeType: "text/plain", text: "embedded" },
            },
          },
        ],
      });
    },
  );

  it("hands the handler its arguments, checked against the schema when there is one", async () => {
    const server = new McpServer({ name: "t", version: "1" })
      .prompt(
        "with_arguments",
        { arguments: { arg1: { required: true }, arg2: { required: true } } },
        ({ arg1, arg2 }) => `arg1='${arg1}', arg2='${arg2}'`,
      )
      .prompt(
        "with_schema",
        { arguments: z.object({ count: z.string().regex(/^\d+$/, "digits only") }) },
        ({ count }) => `count ${count}`,
      );
    const { client } = await connect(server);
    const got = await client.getPrompt("with_arguments", { arg1: "testValue1", arg2: "testValue2" });
    expect(got.messages).toEqual([
      { role: "user", content: { type: "text", text: "arg1='testValue1', arg2='testValue2'" } },
    ]);
    expect((await client.getPrompt("with_schema", { count: "3" })).messages[0]?.content).toEqual({
      type: "text",
      text: "count 3",
    });
    const bad = await rejection(client.getPrompt("with_schema", { count: "three" }));
    expect(bad.code).toBe(-32602);
    expect(bad.message).toBe("Invalid arguments for prompt with_schema: count: digits only");
    await stillAlive(client);
  });

  it.each(ERAS)(
    "answers a missing argument or an unknown prompt with -32602 (%s)",
    async (protocolVersion) => {
      const server = new McpServer({ name: "t", version: "1" }).prompt(
        "with_arguments",
        { arguments: { arg1: { required: true }, arg2: { required: true } } },
        () => "never",
      );
      const { client } = await connect(server, { protocolVersion });
      const missing = await rejection(client.getPrompt("with_arguments", { arg1: "only one" }));
      expect(missing.code).toBe(-32602);
      expect(missing.message).toBe('Missing required argument "arg2" for prompt with_arguments');
      await stillAlive(client);
      // No `arguments` at all is the same as none given.
      const none = await rejection(client.request("prompts/get", { name: "with_arguments" }));
      expect(none.code).toBe(-32602);
      expect(none.message).toBe('Missing required argument "arg1" for prompt with_arguments');
      await stillAlive(client);
      const unknown = await rejection(client.getPrompt("no_such_prompt"));
      expect(unknown.code).toBe(-32602);
      expect(unknown.message).toBe("Unknown prompt: no_such_prompt");
      expect(unknown.data).toEqual({ name: "no_such_prompt" });
      await stillAlive(client);
    },
  );
});
