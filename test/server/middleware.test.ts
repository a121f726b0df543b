/**
 * Server middleware: around every request and notification, both eras; results and errors on the
 * way back, short circuits, rewritten params, per-method selectors, and chains added while
 * sessions are open.
 */
import { describe, expect, it } from "vitest";
import { ErrorCode, McpError } from "../../src/jsonrpc/errors.js";
import { McpServer, type ServerMiddlewareContext } from "../../src/server/index.js";
import { connectInMemory } from "../helpers/connect.js";

function echoServer() {
  return new McpServer({ name: "mw", version: "1" })
    .tool("echo", {}, (args) => JSON.stringify(args))
    .tool("fail", {}, () => {
      throw new McpError(ErrorCode.InvalidParams, "bad call");
    })
    .resource("note://a", { name: "a" }, () => "A");
}

const ERAS = ["2025-11-25", "2026-07-28"] as const;

describe("server middleware", () => {
  for (const protocolVersion of ERAS) {
    it(`runs around every request in order, outermost first, and sees the result (${protocolVersion})`, async () => {
      const seen: string[] = [];
      const server = echoServer()
        .use(async (ctx, next) => {
          seen.push(`outer> ${ctx.kind} ${ctx.method} ${ctx.era}`);
          const result = await next();
          seen.push(`outer< ${ctx.method}`);
          return result;
        })
        .use(async (ctx, next) => {
          seen.push(`inner> ${ctx.method}`);
          return next();
        });
      const { client } = await connectInMemory(server, { protocolVersion });
      const result = await client.callTool("echo", { a: 1 });
      expect(result.text()).toBe('{"a":1}');
      const era = protocolVersion === "2026-07-28" ? "modern" : "legacy";
      expect(seen.filter((line) => line.includes("tools/call"))).toEqual([
        `outer> request tools/call ${era}`,
        "inner> tools/call",
        "outer< tools/call",
      ]);
      await client.close();
    });

    it(`gets the handler's error thrown, and may short-circuit or rewrite params (${protocolVersion})`, async () => {
      const errors: unknown[] = [];
      const server = echoServer()
        .use("tools/call", async (ctx, next) => {
          if (ctx.params.name === "blocked") return { content: [{ type: "text", text: "short" }] };
          if (ctx.params.name === "echo")
            ctx.params = { ...ctx.params, arguments: { ...ctx.params.arguments, rewritten: true } };
          try {
            return await next();
          } catch (error) {
            errors.push(error);
            throw error;
          }
        })
        .use("resources/read", () => {
          throw new McpError(ErrorCode.InvalidRequest, "no reading here");
        });
      const { client } = await connectInMemory(server, { protocolVersion });
      expect((await client.callTool("echo", { a: 1 })).text()).toBe('{"a":1,"rewritten":true}');
      expect((await client.callTool("blocked")).text()).toBe("short");
      const failed = await client.callTool("fail").catch((e) => e);
      expect(failed).toBeInstanceOf(McpError);
      expect(failed.message).toContain("bad call");
      expect(errors).toHaveLength(1);
      const refused = await client.readResource("note://a").catch((e) => e);
      expect(refused.code).toBe(ErrorCode.InvalidRequest);
      expect(refused.message).toContain("no reading here");
      await client.close();
    });
  }

  it("exposes _meta, the request id and the handler's context", async () => {
    let seen: ServerMiddlewareContext<"tools/call"> | undefined;
    let meta: unknown;
    const server = echoServer().use("tools/call", (ctx, next) => {
      seen = ctx;
      meta = ctx.meta;
      return next();
    });
    const { client } = await connectInMemory(server);
    await client.request("tools/call", { name: "echo", arguments: {}, _meta: { "example.com/x": 1 } });
    expect(meta).toEqual({ "example.com/x": 1 });
    expect(typeof seen!.requestId).toBe("number");
    expect(seen!.request?.signal).toBeInstanceOf(AbortSignal);
    expect(seen!.sessionId).toBeUndefined();
    expect(seen!.auth).toBeUndefined();
    await client.close();
  });

  it("selects methods by name, list and glob", async () => {
    const hits: Record<string, string[]> = { one: [], list: [], glob: [] };
    const server = echoServer()
      .use("tools/list", (ctx, next) => {
        hits.one!.push(ctx.method);
        return next();
      })
      .use(["tools/call", "resources/read"], (ctx, next) => {
        hits.list!.push(ctx.method);
        return next();
      })
      .use("resources/*", (ctx, next) => {
        hits.glob!.push(ctx.method);
        return next();
      });
    const { client } = await connectInMemory(server);
    await client.listTools();
    await client.callTool("echo");
    await client.readResource("note://a");
    await client.listResources();
    expect(hits).toEqual({
      one: ["tools/list"],
      list: ["tools/call", "resources/read"],
      glob: ["resources/read", "resources/list"],
    });
    await client.close();
  });

  it("sees notifications, and applies to sessions opened before it was added", async () => {
    const seen: string[] = [];
    const server = echoServer().use("notifications/*", async (ctx, next) => {
      seen.push(`${ctx.kind} ${ctx.method}`);
      expect(await next()).toBeUndefined();
      return undefined;
    });
    const { client } = await connectInMemory(server);
    await client.listTools();
    expect(seen).toEqual(["notification notifications/initialized"]);
    const late: string[] = [];
    server.use("tools/call", (ctx, next) => {
      late.push(ctx.method);
      return next();
    });
    client.setRoots([]);
    await client.callTool("echo");
    expect(late).toEqual(["tools/call"]);
    expect(seen).toEqual([
      "notification notifications/initialized",
      "notification notifications/roots/list_changed",
    ]);
    await client.close();
  });

  it("refuses what is not a middleware or a selector", () => {
    const server = echoServer();
    expect(() => server.use("tools/call", undefined as never)).toThrow(TypeError);
    expect(() => server.use([], (_ctx, next) => next())).toThrow("method list is empty");
    expect(() => server.use("", (_ctx, next) => next())).toThrow("non-empty string");
  });
});
