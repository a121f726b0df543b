import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import type { McpClient } from "../../src/client/index.js";
import { ErrorCode, McpError } from "../../src/jsonrpc/errors.js";
import type { ProtocolVersion } from "../../src/protocol/revisions/index.js";
import { image, McpServer, resourceLink, text } from "../../src/server/index.js";
import { connectInMemory } from "../helpers/connect.js";
import type { MessageLog } from "../helpers/spec-schema.js";

let session: { client: McpClient; log: MessageLog } | undefined;
afterEach(async () => {
  if (!session) return;
  const { client, log } = session;
  session = undefined;
  expect(log.problems(client.protocolVersion)).toEqual([]);
  await client.close();
});

async function start(server: McpServer, protocolVersion?: ProtocolVersion) {
  session = await connectInMemory(server, { protocolVersion });
  return session.client;
}

describe("McpServer tools", () => {
  it("validates zod arguments and names the bad field", async () => {
    const server = new McpServer({ name: "t", version: "1" }).tool(
      "add",
      { description: "Add", input: z.object({ a: z.number(), b: z.number() }) },
      ({ a, b }) => String(a + b),
    );
    const client = await start(server);
    expect((await client.callTool("add", { a: 2, b: 3 })).text()).toBe("5");
    const bad = await client.callTool("add", { a: 2, b: "x" });
    expect(bad.isError).toBe(true);
    expect(bad.text()).toBe(
      "Invalid arguments for tool add: b: Invalid input: expected number, received string",
    );
  });

  it("validates JSON Schema arguments and names the bad or missing field", async () => {
    const server = new McpServer({ name: "t", version: "1" }).tool(
      "greet",
      {
        input: {
          type: "object",
          properties: { name: { type: "string" }, times: { type: "integer", minimum: 1 } },
          required: ["name"],
        },
      },
      ({ name, times = 1 }) => `hello ${name}`.repeat(times),
    );
    const client = await start(server);
    expect((await client.callTool("greet", { name: "ana", times: 2 })).text()).toBe("hello anahello ana");
    const missing = await client.callTool("greet", {});
    expect(missing).toMatchObject({ isError: true });
    expect(missing.text()).toBe(
      "Invalid arguments for tool greet: must have required property 'name' (name)",
    );
    const wrong = await client.callTool("greet", { name: "x", times: 0 });
    expect(wrong.text()).toBe("Invalid arguments for tool greet: times: must be >= 1");
  });

  it("turns a thrown Error into an isError result and an McpError into a JSON-RPC error", async () => {
    const server = new McpServer({ name: "t", version: "1" })
      .tool("fail", {}, () => {
        throw new Error("disk full");
      })
      .tool("refuse", {}, () => {
        throw new McpError(ErrorCode.InvalidParams, "not today");
      });
    const client = await start(server);
    const failed = await client.callTool("fail");
    expect(failed.isError).toBe(true);
    expect(failed.text()).toBe("disk full");
    await expect(client.callTool("refuse")).rejects.toMatchObject({ code: -32602, message: "not today" });
  });

  it("answers an unknown tool with -32602 and keeps the connection", async () => {
    const client = await start(new McpServer({ name: "t", version: "1" }).tool("a", {}, () => "a"));
    const error = await client.callTool("nope").catch((e) => e);
    expect(error).toBeInstanceOf(McpError);
    expect(error).toMatchObject({ code: -32602, message: "Unknown tool: nope" });
    expect((await client.callTool("a")).text()).toBe("a");
  });

  it("returns every content block type with the spec's shapes", async () => {
    const server = new McpServer({ name: "t", version: "1" }).tool("blocks", {}, () => [
      text("hello"),
      image(new Uint8Array([1, 2, 3]), "image/png"),
      resourceLink("file:///a.txt", "a.txt", { mimeType: "text/plain" }),
      { type: "resource", resource: { uri: "file:///b.txt", text: "b", mimeType: "text/plain" } },
      { type: "audio", data: "AAAA", mimeType: "audio/wav" },
    ]);
    const client = await start(server);
    const result = await client.callTool("blocks");
    expect(result.content).toEqual([
      { type: "text", text: "hello" },
      { type: "image", data: "AQID", mimeType: "image/png" },
      { type: "resource_link", uri: "file:///a.txt", name: "a.txt", mimeType: "text/plain" },
      { type: "resource", resource: { uri: "file:///b.txt", text: "b", mimeType: "text/plain" } },
      { type: "audio", data: "AAAA", mimeType: "audio/wav" },
    ]);
    expect(result.text()).toBe("hello");
    expect(JSON.parse(JSON.stringify(result))).toEqual({ content: result.content });
  });

  it("sends structuredContent checked against the output schema", async () => {
    const server = new McpServer({ name: "t", version: "1" })
      .tool(
        "stats",
        {
          input: z.object({ xs: z.array(z.number()) }),
          output: z.object({ sum: z.number(), n: z.number() }),
        },
        ({ xs }) => ({ sum: xs.reduce((a, b) => a + b, 0), n: xs.length }),
      )
      // @ts-expect-error the declared output is checked at compile time too; this tests the run-time check
      .tool("broken", { output: z.object({ sum: z.number() }) }, () => ({ sum: "no" }));
    const client = await start(server);
    const [stats] = (await client.listTools()).filter((t) => t.name === "stats");
    expect(stats?.outputSchema).toMatchObject({ type: "object", required: ["sum", "n"] });
    const result = await client.callTool("stats", { xs: [1, 2, 3] });
    expect(result.structuredContent).toEqual({ sum: 6, n: 3 });
    expect(JSON.parse(result.text())).toEqual({ sum: 6, n: 3 });
    await expect(client.callTool("broken")).rejects.toMatchObject({
      code: -32603,
      message: expect.stringContaining("does not match its output schema: sum:"),
    });
  });

  it("pages tools/list in name order and rejects a forged cursor", async () => {
    const server = new McpServer({ name: "t", version: "1" }, { pageSize: 2 });
    for (const name of ["e", "c", "a", "d", "b"]) server.tool(name, { description: name }, () => name);
    const client = await start(server);
    const first = await client.listToolsPage();
    expect(first.tools.map((t) => t.name)).toEqual(["a", "b"]);
    expect(first.nextCursor).toBeTypeOf("string");
    expect((await client.listTools()).map((t) => t.name)).toEqual(["a", "b", "c", "d", "e"]);
    await expect(client.listToolsPage("!!not a cursor")).rejects.toMatchObject({ code: -32602 });
  });

  it("tells connected clients when tools are added or removed, once per burst", async () => {
    const server = new McpServer({ name: "t", version: "1" }).tool("a", {}, () => "a");
    const client = await start(server);
    server.tool("b", {}, () => "b").tool("c", {}, () => "c");
    server.removeTool("a");
    // One pipe, in order: a request sent after the burst is answered after all the burst caused.
    expect((await client.listTools()).map((t) => t.name)).toEqual(["b", "c"]);
    const changes = session!.log.entries.filter(
      (e) => (e.message as { method?: string }).method === "notifications/tools/list_changed",
    );
    expect(changes).toHaveLength(1);
  });

  it("gives handlers progress and a signal that aborts when the client cancels", async () => {
    let abort!: () => void;
    const aborted = new Promise<void>((resolve) => {
      abort = resolve;
    });
    const server = new McpServer({ name: "t", version: "1" }).tool("work", {}, async (_args, ctx) => {
      ctx.progress(1, 2, "half");
      await new Promise<void>((resolve) =>
        ctx.signal.addEventListener("abort", () => {
          abort();
          resolve();
        }),
      );
      return "never sent";
    });
    const client = await start(server);
    const controller = new AbortController();
    const progress: unknown[] = [];
    let progressed!: () => void;
    const firstProgress = new Promise<void>((resolve) => {
      progressed = resolve;
    });
    const call = client.callTool(
      "work",
      {},
      {
        signal: controller.signal,
        onProgress: (p) => {
          progress.push(p);
          progressed();
        },
      },
    );
    await firstProgress;
    controller.abort(new Error("stop"));
    await expect(call).rejects.toThrow("stop");
    await aborted;
    expect(progress).toEqual([{ progress: 1, total: 2, message: "half" }]);
  });

  it("rejects input schemas that do not describe an object at registration (outputs may, since 2026-07-28)", () => {
    const server = new McpServer({ name: "t", version: "1" });
    expect(() => server.tool("x", { input: z.string() as never }, () => "")).toThrow(
      'The input schema of tool "x" must describe an object (type "object")',
    );
    expect(() => server.tool("x", { input: { type: "string" } }, () => "")).toThrow(
      'The input schema of tool "x" must describe an object (type "object")',
    );
    expect(() => server.tool("a", { output: z.array(z.number()) }, () => [1])).not.toThrow();
    expect(() => server.tool("b", { output: { type: "array" } }, () => [])).not.toThrow();
    expect(() => server.tool("x", {}, () => "").tool("x", {}, () => "")).toThrow("already registered");
  });

  it("lists every field a tool gives, in wire order, and tools with equal schemas alike", async () => {
    const message = () => ({
      type: "object",
      properties: { message: { type: "string" } },
      required: ["message"],
    });
    const server = new McpServer({ name: "t", version: "1" })
      .tool(
        "full",
        {
          title: "Full",
          description: "Every field",
          input: z.object({ message: z.string() }),
          output: z.object({ echoed: z.string() }),
          annotations: { readOnlyHint: true },
          icons: [{ src: "https://example.com/i.png" }],
          _meta: { "example.com/k": 1 },
        },
        ({ message }) => ({ echoed: message }),
      )
      .tool("zod", { input: z.object({ message: z.string() }) }, ({ message }) => message)
      .tool("json-a", { input: message() }, ({ message }) => message)
      .tool("json-b", { description: "B", input: message() }, ({ message }) => message);
    const client = await start(server);
    await client.listTools();
    const listed = session!.log.entries.find(
      (e) => (e.message as { result?: { tools?: unknown } }).result?.tools !== undefined,
    )!.message as { result: { tools: Record<string, unknown>[] } };
    const [full, jsonA, jsonB, zod] = listed.result.tools;
    const zodSchema = '{"type":"object","properties":{"message":{"type":"string"}},"required":["message"]}';
    expect(JSON.stringify(full)).toBe(
      `{"name":"full","inputSchema":${zodSchema},"title":"Full","description":"Every field",` +
        '"outputSchema":{"type":"object","properties":{"echoed":{"type":"string"}},"required":["echoed"],"additionalProperties":false},' +
        '"annotations":{"readOnlyHint":true},"icons":[{"src":"https://example.com/i.png"}],"_meta":{"example.com/k":1}}',
    );
    expect(JSON.stringify(zod)).toBe(`{"name":"zod","inputSchema":${zodSchema}}`);
    expect(jsonA).toEqual({ name: "json-a", inputSchema: message() });
    expect(jsonB).toEqual({ name: "json-b", inputSchema: message(), description: "B" });
  });

  it("checks arguments from a tool's first call, when tools share a schema", async () => {
    const shape = { type: "object", properties: { n: { type: "integer" } }, required: ["n"] };
    const server = new McpServer({ name: "t", version: "1" })
      .tool("a", { input: structuredClone(shape) }, ({ n }) => `a${n}`)
      .tool("b", { input: structuredClone(shape) }, ({ n }) => `b${n}`)
      .tool("za", { input: z.object({ n: z.coerce.number() }) }, ({ n }) => `za${n + 1}`)
      .tool("zb", { input: z.object({ n: z.coerce.number() }) }, ({ n }) => `zb${n + 1}`);
    const client = await start(server);
    expect((await client.callTool("b", { n: "x" })).text()).toBe(
      "Invalid arguments for tool b: n: must be integer",
    );
    expect((await client.callTool("b", {})).text()).toBe(
      "Invalid arguments for tool b: must have required property 'n' (n)",
    );
    expect((await client.callTool("b", { n: 2 })).text()).toBe("b2");
    expect((await client.callTool("a", { n: 1 })).text()).toBe("a1");
    expect((await client.callTool("zb", { n: "2" })).text()).toBe("zb3");
    expect((await client.callTool("za", { n: "x" })).text()).toBe(
      "Invalid arguments for tool za: n: Invalid input: expected number, received NaN",
    );
  });

  it("lists a JSON Schema as it was at registration", async () => {
    const input = { type: "object", properties: { a: { type: "string" } } };
    const server = new McpServer({ name: "t", version: "1" }).tool("t", { input }, () => "");
    input.properties.a.type = "number";
    const client = await start(server);
    const [tool] = await client.listTools();
    expect(tool?.inputSchema).toEqual({ type: "object", properties: { a: { type: "string" } } });
    expect((await client.callTool("t", { a: 1 })).text()).toBe(
      "Invalid arguments for tool t: a: must be string",
    );
  });
});
