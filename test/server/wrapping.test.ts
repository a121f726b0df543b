/**
 * One wrapping type: a middleware added with one `server.use(…)` sees every result a tool
 * produces (inline, and as a task's result in both eras) and every message the server sends
 * (progress); the extensions' and the server's own steps run in the one order `MIDDLEWARE_ORDER`
 * says. Over Streamable HTTP on 127.0.0.1, a real client.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { McpClient } from "../../src/client/index.js";
import { tasks } from "../../src/extensions/tasks/index.js";
import type { McpError } from "../../src/jsonrpc/errors.js";
import type { Progress } from "../../src/protocol/types/base.js";
import { McpServer, MIDDLEWARE_ORDER, placed, type ServerMiddleware } from "../../src/server/index.js";

const SECRET = "sk-live-0123456789";
const hide = (text: string) => text.replaceAll(SECRET, "[redacted]");

/** Redacts the secret from tool results and from whatever the server sends. */
const redact: ServerMiddleware = async (ctx, next) => {
  if (ctx.kind === "outgoing") {
    // Changed before `next()`, with nothing awaited first: the message keeps its place.
    ctx.params = JSON.parse(hide(JSON.stringify(ctx.params)));
    return next();
  }
  const result = await next();
  if (ctx.method !== "tools/call" || result === undefined) return result;
  return JSON.parse(hide(JSON.stringify(result)));
};

function leakyServer() {
  return new McpServer({ name: "leaky", version: "1" }, { extensions: [tasks({ pollInterval: 20 })] })
    .tool("leak", { task: "optional" }, async (_args, ctx) => {
      ctx.progress(1, 2, `working with ${SECRET}`);
      return `the key is ${SECRET}`;
    })
    .use(redact);
}

describe("a middleware added with one server.use(…) redacts a secret", () => {
  const server = leakyServer();
  let url: string;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const handle = await server.serveHttp({ port: 0, host: "127.0.0.1" });
    url = handle.url;
    close = () => handle.close();
  });
  afterAll(async () => {
    await close?.();
    await server.close();
  });

  it("from a plain tool result", async () => {
    const client = await McpClient.connect({ url, protocolVersion: "2025-11-25" });
    const result = await client.callTool("leak");
    expect(result.text()).toBe("the key is [redacted]");
    await client.close();
  });

  it("from a 2025-11-25 task's result (tasks/result)", async () => {
    const client = await McpClient.connect({ url, protocolVersion: "2025-11-25" });
    const task = await client.callTool("leak", {}, { task: true });
    expect((await task.result()).text()).toBe("the key is [redacted]");
    await client.close();
  });

  it("from a 2026-07-28 task's result (inline in tasks/get)", async () => {
    const client = await McpClient.connect({ url, protocolVersion: "2026-07-28" });
    const task = await client.callTool("leak", {}, { task: true });
    expect((await task.result()).text()).toBe("the key is [redacted]");
    await client.close();
  });

  it("from a progress notification", async () => {
    const client = await McpClient.connect({ url, protocolVersion: "2025-11-25" });
    const progress: Progress[] = [];
    await client.callTool("leak", {}, { onProgress: (update) => progress.push(update) });
    expect(progress.map((update) => update.message)).toEqual(["working with [redacted]"]);
    await client.close();
  });
});

describe("the one middleware order", () => {
  it("runs each middleware at its place, whatever order they were added in", async () => {
    expect(MIDDLEWARE_ORDER).toEqual(["tracing", "auth", "policy", "audit", "extensions", "use"]);
    const seen: string[] = [];
    const at =
      (name: string): ServerMiddleware =>
      (ctx, next) => {
        if (ctx.kind === "request" && ctx.method === "tools/call") seen.push(name);
        return next();
      };
    const server = new McpServer({ name: "order", version: "1" })
      .tool("hi", {}, () => "hi")
      .use(at("use"))
      .use(placed("audit", at("audit")))
      .use(placed("tracing", at("tracing")))
      .use(placed("auth", at("auth")))
      .use(placed("policy", at("policy")));
    const handle = await server.serveHttp({ port: 0, host: "127.0.0.1" });
    try {
      const client = await McpClient.connect({ url: handle.url, protocolVersion: "2026-07-28" });
      await client.callTool("hi");
      expect(seen).toEqual(["tracing", "auth", "policy", "audit", "use"]);
      await client.close();
    } finally {
      await handle.close();
      await server.close();
    }
  });

  it("refuses a place that is not in the list", () => {
    expect(() => placed("first" as never, (_ctx: unknown, next: () => unknown) => next())).toThrow(TypeError);
  });

  it("an outgoing middleware that throws drops the message: a request to the client fails with it", async () => {
    const server = new McpServer({ name: "ask", version: "1" })
      .tool("ask", {}, async (_args, ctx) => {
        const roots = await ctx.listRoots().catch((error: McpError) => error.message);
        return String(roots);
      })
      .use("roots/list", (ctx, next) => {
        if (ctx.kind === "outgoing") throw new Error("no asking for roots here");
        return next();
      });
    const handle = await server.serveHttp({ port: 0, host: "127.0.0.1" });
    try {
      const client = await McpClient.connect({ url: handle.url, protocolVersion: "2025-11-25", roots: [] });
      expect((await client.callTool("ask")).text()).toBe("no asking for roots here");
      await client.close();
    } finally {
      await handle.close();
      await server.close();
    }
  });
});
