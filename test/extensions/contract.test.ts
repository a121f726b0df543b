/**
 * The extension contract, both roles: an extension's id declared under capabilities.extensions,
 * its methods answered only for clients that declared it (-32021 otherwise), its middleware, and the client side declaring extensions and handling their notifications.
 */
import { describe, expect, it } from "vitest";
import type { ClientExtension } from "../../src/client/index.js";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import { McpServer, type ServerExtension } from "../../src/server/index.js";
import { connectInMemory } from "../helpers/connect.js";

const ID = "example.com/echo";

function echoExtension(): ServerExtension {
  return {
    id: ID,
    settings: { loud: true },
    methods: [
      {
        method: "echo/say",
        handler: (params, ctx) => {
          ctx.session.notify("notifications/echo/said", { text: params.text });
          return { said: params.text };
        },
      },
      { method: "echo/old", handler: () => ({ old: true }), eras: ["legacy"] },
    ],
    middleware: {
      "tools/call": async (_ctx, next) => {
        const result = (await next()) as { content: { type: string; text: string }[] };
        return { ...result, content: [...result.content, { type: "text", text: "(echoed)" }] };
      },
    },
    notifications: ["notifications/echo/said"],
  };
}

const server = () =>
  new McpServer({ name: "echo", version: "1" }, { extensions: [echoExtension()] }).tool("hi", {}, () => "hi");

describe("extension contract", () => {
  for (const protocolVersion of ["2025-11-25", "2026-07-28"] as const) {
    it(`declares the extension and answers its methods for a client that declared it (${protocolVersion})`, async () => {
      const heard: unknown[] = [];
      const extension: ClientExtension = {
        id: ID,
        notifications: { "notifications/echo/said": (params) => heard.push(params) },
      };
      const { client } = await connectInMemory(server(), { protocolVersion, extensions: [extension] });
      expect(client.serverExtension(ID)).toEqual({ loud: true });
      expect(client.capabilities.extensions).toEqual({ [ID]: { loud: true } });
      expect(client.serverExtension("example.com/other")).toBeUndefined();
      expect(await client.request("echo/say", { text: "x" })).toMatchObject({ said: "x" });
      const result = await client.callTool("hi");
      expect(result.content.map((block) => (block as { text: string }).text)).toEqual(["hi", "(echoed)"]);
      if (protocolVersion === "2025-11-25") {
        expect(heard).toEqual([{ text: "x" }]);
        expect(await client.request("echo/old")).toEqual({ old: true });
      } else {
        const old = await client.request("echo/old").catch((e) => e);
        expect(old.code).toBe(ErrorCode.MethodNotFound);
      }
      await client.close();
    });

    it(`refuses a method of the extension with -32021 when the client did not declare it (${protocolVersion})`, async () => {
      const { client } = await connectInMemory(server(), { protocolVersion });
      const error = await client.request("echo/say", { text: "x" }).catch((e) => e);
      expect(error.code).toBe(ErrorCode.MissingRequiredClientCapability);
      expect(error.data).toEqual({ requiredCapabilities: { extensions: { [ID]: {} } } });
      // A method no extension adds is still unknown.
      const unknown = await client.request("echo/none").catch((e) => e);
      expect(unknown.code).toBe(ErrorCode.MethodNotFound);
      await client.close();
    });
  }

  it("refuses bad extensions when the server or client is built", async () => {
    const bad = (extensions: ServerExtension[]) => () =>
      new McpServer({ name: "x", version: "1" }, { extensions });
    expect(bad([{ id: "noslash" }])).toThrow('An extension needs an id of the form "vendor-prefix/name"');
    expect(bad([{ id: ID }, { id: ID }])).toThrow(`The extension ${ID} is given twice`);
    expect(bad([{ id: ID, methods: [{ method: "tools/list", handler: () => ({}) }] }])).toThrow(
      `The extension ${ID} adds tools/list, which the server answers itself`,
    );
    expect(bad([{ id: ID, metaKeys: ["related"] }])).toThrow(
      `The extension ${ID} names the _meta key "related": a key of the form "prefix/name" is needed`,
    );
    expect(bad([{ id: ID, metaKeys: ["io.modelcontextprotocol/clientInfo"] }])).toThrow(
      `The extension ${ID} claims the _meta key io.modelcontextprotocol/clientInfo, which the protocol itself uses`,
    );
    expect(
      bad([
        { id: ID, metaKeys: ["example.com/k"] },
        { id: "example.com/other", metaKeys: ["example.com/k"] },
      ]),
    ).toThrow(`Two extensions claim the _meta key example.com/k: ${ID} and example.com/other`);
    expect(bad([{ id: ID, metaKeys: ["example.com/k"] }])).not.toThrow();
    await expect(connectInMemory(server(), { extensions: [{ id: "" }] })).rejects.toThrow(
      'An extension needs an id of the form "vendor-prefix/name"',
    );
  });
});
