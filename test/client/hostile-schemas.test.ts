/**
 * Tool schemas a hostile server can send: nested deeper than a recursive walk survives, or pointing
 * at what cannot be resolved. Such a tool is left out with a warning that names it; the others stay.
 */
import { describe, expect, it } from "vitest";
import { McpClient, schemaForLlm } from "../../src/client/index.js";
import { Peer } from "../../src/protocol/engine/peer.js";
import type { Transport } from "../../src/protocol/transport.js";
import type { Tool } from "../../src/protocol/types/tools.js";
import { paramHeadersOf } from "../../src/transports/http/shared/param-headers.js";
import { createMemoryTransportPair } from "../../src/transports/memory/pair.js";

/** `{ anyOf: [{ anyOf: [ … { type: "string" } … ] }] }`, `depth` deep. */
function deepAnyOf(depth: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: "string" };
  for (let i = 0; i < depth; i++) schema = { anyOf: [schema] };
  return schema;
}

/** `{ properties: { a: { properties: { a: … } } } }`, `depth` deep, as `x-mcp-header` walks it. */
function deepProperties(depth: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: "string", "x-mcp-header": "Deep" };
  for (let i = 0; i < depth; i++) schema = { type: "object", properties: { a: schema } };
  return schema;
}

const ok: Tool = { name: "ok", inputSchema: { type: "object", properties: { q: { type: "string" } } } };
const hostile: Tool[] = [
  { name: "deep_anyof", inputSchema: { type: "object", properties: { v: deepAnyOf(2000) } } },
  { name: "deep_properties", inputSchema: deepProperties(2000) as Tool["inputSchema"] },
  {
    name: "external_ref",
    inputSchema: { type: "object", properties: { v: { $ref: "https://example.com/schemas/v.json" } } },
  },
  {
    name: "missing_ref",
    inputSchema: { type: "object", properties: { v: { $ref: "#/$defs/Missing" } } },
  },
  {
    name: "huge",
    inputSchema: {
      type: "object",
      properties: Object.fromEntries(
        Array.from({ length: 200_000 }, (_, i) => [`p${i}`, { type: "string" }]),
      ),
    },
  },
];

/** A client of a raw server whose `tools/list` answers `tools`; `modern` gives it a stateless-capable wire. */
async function clientOf(tools: Tool[], modern: boolean) {
  const [clientSide, serverSide] = createMemoryTransportPair();
  const server = new Peer(serverSide);
  server.setRequestHandler("server/discover", () => ({
    supportedVersions: ["2026-07-28"],
    capabilities: { tools: {} },
    resultType: "complete",
    _meta: { "io.modelcontextprotocol/serverInfo": { name: "hostile", version: "1" } },
  }));
  server.setRequestHandler("initialize", (params) => ({
    protocolVersion: params.protocolVersion,
    capabilities: { tools: {} },
    serverInfo: { name: "hostile", version: "1" },
  }));
  server.setRequestHandler("tools/list", () => ({ tools, resultType: "complete" }));
  server.setRequestHandler("tools/call", () => ({ content: [{ type: "text", text: "called" }] }));
  await server.start();
  // Statelessly over HTTP, arguments are mirrored in headers: the x-mcp-header walk runs.
  const transport: Transport = modern
    ? Object.assign(clientSide, { useModern() {}, resetModern() {} })
    : clientSide;
  const client = await McpClient.connect({
    transport,
    protocolVersion: modern ? "2026-07-28" : "2025-11-25",
  });
  return client;
}

describe("hostile tool schemas", () => {
  it("bound the x-mcp-header walk: a schema too deep is a reason, not a stack overflow", () => {
    expect(paramHeadersOf(deepProperties(2000))).toMatch(/nests deeper than/);
    expect(paramHeadersOf(deepAnyOf(2000))).toMatch(/nests deeper than/);
    expect(paramHeadersOf(deepProperties(3))).toEqual([{ header: "mcp-param-deep", path: ["a", "a", "a"] }]);
  });

  it("bound schemaForLlm: a schema too deep, too large or expanding without end is a TypeError", () => {
    expect(() => schemaForLlm({ type: "object", properties: { v: deepAnyOf(2000) } }, "openai")).toThrow(
      /nests deeper than/,
    );
    // Each definition uses the next one ten times: 10^8 copies once inlined.
    const $defs: Record<string, unknown> = { D8: { type: "string" } };
    for (let i = 7; i >= 0; i--) {
      $defs[`D${i}`] = {
        type: "array",
        prefixItems: Array.from({ length: 10 }, () => ({ $ref: `#/$defs/D${i + 1}` })),
      };
    }
    expect(() =>
      schemaForLlm({ type: "object", properties: { v: { $ref: "#/$defs/D0" } }, $defs }, "generic"),
    ).toThrow(/more than \d+ nodes/);
    expect(() => schemaForLlm(hostile[2]!.inputSchema, "generic")).toThrow(
      /\$ref "https:\/\/example.com\/schemas\/v.json" cannot be resolved/,
    );
  });

  for (const modern of [false, true]) {
    it(`leaves such tools out of listTools with a warning naming each, the others kept (${modern ? "2026-07-28" : "2025-11-25"})`, async () => {
      const client = await clientOf([ok, ...hostile], modern);
      const warnings: string[] = [];
      client.on("warning", (message) => warnings.push(message));
      try {
        const tools = await client.listTools();
        expect(tools.map((t) => t.name)).toEqual(["ok"]);
        expect(warnings).toEqual([
          expect.stringMatching(/^Tool deep_anyof left out: its input schema nests deeper than 100 levels/),
          expect.stringMatching(
            /^Tool deep_properties left out: its input schema nests deeper than 100 levels/,
          ),
          expect.stringMatching(
            /^Tool external_ref left out: its input schema's \$ref "https:\/\/example.com\/schemas\/v.json" cannot be resolved/,
          ),
          expect.stringMatching(
            /^Tool missing_ref left out: its input schema's \$ref "#\/\$defs\/Missing" cannot be resolved/,
          ),
          expect.stringMatching(/^Tool huge left out: its input schema has more than 100000 nodes/),
        ]);
        const [tool] = await client.asTools();
        expect(tool!.name).toBe("ok");
        expect((await tool!.invoke({ q: "x" })).text).toBe("called");
      } finally {
        await client.close();
      }
    });
  }
});
