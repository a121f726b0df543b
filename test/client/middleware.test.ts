/**
 * Client middleware: around every outgoing request, both eras; results and errors on the way
 * back, short circuits, `_meta` added on the way out (and seen by the server), selectors.
 */
import { describe, expect, it } from "vitest";
import type { ClientMiddleware } from "../../src/client/index.js";
import { ErrorCode, McpError } from "../../src/jsonrpc/errors.js";
import { McpServer } from "../../src/server/index.js";
import { connectInMemory } from "../helpers/connect.js";

function metaServer() {
  return new McpServer({ name: "meta", version: "1" })
    .tool("meta", {}, (_args, ctx) => JSON.stringify(ctx.meta?.["example.com/trace"] ?? null))
    .tool("fail", {}, () => "never")
    .resource("note://a", { name: "a" }, () => "A");
}

describe("client middleware", () => {
  for (const protocolVersion of ["2025-11-25", "2026-07-28"] as const) {
    it(`runs around every request, adds _meta, sees results (${protocolVersion})`, async () => {
      const seen: string[] = [];
      const tag: ClientMiddleware = async (ctx, next) => {
        seen.push(`${ctx.method} ${ctx.era}`);
        ctx.setMeta({ "example.com/trace": "t-1" });
        const result = await next();
        seen.push(`< ${ctx.method} ${Object.keys(result).join(",")}`);
        return result;
      };
      const { client } = await connectInMemory(metaServer(), { protocolVersion, middleware: [tag] });
      expect((await client.callTool("meta")).text()).toBe('"t-1"');
      await client.readResource("note://a");
      const era = protocolVersion === "2026-07-28" ? "modern" : "legacy";
      expect(seen[0]).toBe(`tools/call ${era}`);
      expect(seen[1]).toMatch(/^< tools\/call content/);
      expect(seen[2]).toBe(`resources/read ${era}`);
      await client.close();
    });

    it(`may short-circuit, throw its own error, and sees the server's (${protocolVersion})`, async () => {
      const { client } = await connectInMemory(metaServer(), { protocolVersion });
      const errors: unknown[] = [];
      client
        .use("tools/call", async (ctx, next) => {
          if (ctx.params?.name === "cached") return { content: [{ type: "text", text: "from cache" }] };
          if (ctx.params?.name === "refused") throw new McpError(ErrorCode.InvalidRequest, "not sent");
          try {
            return await next();
          } catch (error) {
            errors.push(error);
            throw error;
          }
        })
        .use("prompts/*", (_ctx, next) => next());
      expect((await client.callTool("cached")).text()).toBe("from cache");
      expect((await client.callTool("refused").catch((e) => e)).message).toContain("not sent");
      const unknown = await client.callTool("nope").catch((e) => e);
      expect(unknown).toBeInstanceOf(McpError);
      expect(errors).toEqual([unknown]);
      await client.close();
    });
  }

  it("leaves requests of other methods alone, and sees the ping", async () => {
    const { client } = await connectInMemory(metaServer());
    const methods: string[] = [];
    client.use(["ping", "resources/*"], (ctx, next) => {
      methods.push(ctx.method);
      return next();
    });
    await client.ping();
    await client.callTool("meta");
    await client.readResource("note://a");
    expect(methods).toEqual(["ping", "resources/read"]);
    await client.close();
  });
});
