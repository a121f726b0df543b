/**
 * Types users rely on: checked by the type check of `npm test` (each `@ts-expect-error` must meet an
 * error), and run so that what they describe is what happens.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { McpClient, McpServer, MultiServerClient } from "../src/index.js";
import type { UriTemplateVariables } from "../src/util/uri-template.js";
import { connectInMemory } from "./helpers/connect.js";

describe("types", () => {
  it("checks a tool handler's return against its output schema", async () => {
    const server = new McpServer({ name: "t", version: "1" })
      .tool(
        "sum",
        { input: z.object({ xs: z.array(z.number()) }), output: z.object({ sum: z.number() }) },
        ({ xs }) => ({
          sum: xs.reduce((a, b) => a + b, 0),
        }),
      )
      // A whole result is allowed too.
      .tool("whole", { output: z.object({ ok: z.boolean() }) }, () => ({
        content: [{ type: "text" as const, text: "ok" }],
        structuredContent: { ok: true },
      }));
    // @ts-expect-error a string is not the declared output
    server.tool("wrong", { output: z.object({ sum: z.number() }) }, () => "three");
    const { client } = await connectInMemory(server);
    expect((await client.callTool("sum", { xs: [1, 2] })).structuredContent).toEqual({ sum: 3 });
    await client.close();
  });

  it("types a template's variables from the template string", async () => {
    const server = new McpServer({ name: "t", version: "1" }).resourceTemplate(
      "notes://{id}{?rev}",
      { name: "note" },
      (_uri, { id, rev }) => {
        // @ts-expect-error a query variable may be absent
        const always: string = rev;
        return `${String(id)} ${always ?? "head"}`;
      },
      { complete: { id: () => ["1", "2"] } },
    );
    expect(() =>
      server.resourceTemplate("other://{id}", { name: "other" }, () => "", {
        // @ts-expect-error completers are named after the template's variables
        complete: { nosuch: () => [] },
      }),
    ).toThrow('Template "other://{id}" has no variable "nosuch" to complete');
    const vars: UriTemplateVariables<"x:{/p*}{?q}"> = { p: ["a"] };
    expect(vars.q).toBeUndefined();
    const file: UriTemplateVariables<"file:///{+path}"> = { path: "a/b" };
    // @ts-expect-error {+path} matches one string
    const list: UriTemplateVariables<"file:///{+path}"> = { path: ["a"] };
    expect([file.path, list.path]).toEqual(["a/b", ["a"]]);
  });

  it("exports the main classes from the package root, and knows the protocol versions", async () => {
    expect(typeof McpClient.connect).toBe("function");
    expect(typeof MultiServerClient.connect).toBe("function");
    const server = new McpServer({ name: "t", version: "1" });
    // @ts-expect-error not a protocol version
    const pinned: Parameters<typeof McpClient.connect>[0]["protocolVersion"] = "2025-13-01";
    expect(pinned).toBe("2025-13-01");
    await server.close();
  });
});
