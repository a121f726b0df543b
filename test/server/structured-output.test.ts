/**
 * Structured tool output beyond objects (2026-07-28: any JSON Schema, any JSON value), and what
 * clients of older revisions get instead: the tool without its output schema, the result without
 * its structured content but with its text. Every message is checked against the revision's schema.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { McpServer } from "../../src/server/server.js";
import { connectInMemory } from "../helpers/connect.js";

function server() {
  return new McpServer({ name: "structured", version: "1" })
    .tool("tags", { output: z.array(z.string()) }, () => ["red", "green"])
    .tool("count", { output: { type: "integer", minimum: 0 } }, () => 3)
    .tool("wrong", { output: { type: "integer" } }, () => "three")
    .tool("point", { output: z.object({ x: z.number() }) }, () => ({ x: 1 }));
}

describe("structured output that is not an object", () => {
  it("is listed and returned as such to a 2026-07-28 client", async () => {
    const { client, log } = await connectInMemory(server(), { protocolVersion: "2026-07-28" });
    const tools = Object.fromEntries((await client.listTools()).map((t) => [t.name, t]));
    expect(tools.tags?.outputSchema).toMatchObject({ type: "array", items: { type: "string" } });
    expect(tools.count?.outputSchema).toEqual({ type: "integer", minimum: 0 });
    const tags = await client.callTool("tags");
    expect(tags.structuredContent).toEqual(["red", "green"]);
    expect(tags.text()).toBe('["red","green"]');
    expect((await client.callTool("count")).structuredContent).toBe(3);
    expect((await client.callTool("point")).structuredContent).toEqual({ x: 1 });
    await expect(client.callTool("wrong")).rejects.toThrow(/does not match its output schema/);
    expect(log.problems("2026-07-28")).toEqual([]);
    await client.close();
  });

  it("is left out for a 2025-11-25 client, which still gets the text and object outputs", async () => {
    const { client, log } = await connectInMemory(server(), { protocolVersion: "2025-11-25" });
    const tools = Object.fromEntries((await client.listTools()).map((t) => [t.name, t]));
    expect(tools.tags).toBeDefined();
    expect(tools.tags?.outputSchema).toBeUndefined();
    expect(tools.count?.outputSchema).toBeUndefined();
    expect(tools.point?.outputSchema).toMatchObject({ type: "object" });
    const tags = await client.callTool("tags");
    expect(tags.structuredContent).toBeUndefined();
    expect(tags.text()).toBe('["red","green"]');
    expect((await client.callTool("point")).structuredContent).toEqual({ x: 1 });
    expect(log.problems("2025-11-25")).toEqual([]);
    await client.close();
  });

  it("still needs an object schema for the arguments, and a JSON Schema object for the output", () => {
    const registry = new McpServer({ name: "x", version: "1" });
    expect(() => registry.tool("bad", { input: { type: "array" } }, () => "")).toThrow(
      'The input schema of tool "bad" must describe an object (type "object")',
    );
    expect(() => registry.tool("worse", { output: [] as never }, () => "" as never)).toThrow(
      'The output schema of tool "worse" must be a JSON Schema object',
    );
  });

  it("is listed, returned and checked as such by the official SDK v2 client in 2026-07-28 mode", async () => {
    const handle = await server().serveHttp();
    const client = new Client(
      { name: "structured-interop", version: "0.0.1" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } } },
    );
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(handle.url)));
      const { tools } = await client.listTools();
      expect(tools.find((t) => t.name === "tags")?.outputSchema).toMatchObject({ type: "array" });
      const tags = await client.callTool({ name: "tags", arguments: {} });
      expect(tags.structuredContent).toEqual(["red", "green"]);
      expect((await client.callTool({ name: "count", arguments: {} })).structuredContent).toBe(3);
    } finally {
      await client.close();
      await handle.close();
    }
  });
});
