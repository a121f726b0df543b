import {
  getToolUiResourceUri,
  McpUiResourceMetaSchema,
  McpUiToolMetaSchema,
  RESOURCE_MIME_TYPE,
  RESOURCE_URI_META_KEY,
} from "@modelcontextprotocol/ext-apps/app-bridge";
import schema from "@modelcontextprotocol/ext-apps/schema.json" with { type: "json" };
import { registerAppResource, registerAppTool } from "@modelcontextprotocol/ext-apps/server";
import { createMcpHandler, McpServer as SdkServer } from "@modelcontextprotocol/server";
import Ajv2020 from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { McpClient } from "../../src/client/index.js";
import {
  isAppCallable,
  isModelVisible,
  readUiResource,
  registerUiResource,
  UI_MIME_TYPE,
  type UiResourceMeta,
  uiResourceOf,
  uiTool,
} from "../../src/extensions/apps/index.js";
import { McpServer } from "../../src/server/index.js";
import type { HttpServerHandle } from "../../src/transports/http/server/index.js";
import { TestHttpServer, toWebRequest, writeWebResponse } from "../helpers/sdk-http-servers.js";

const HTML = "<!DOCTYPE html><html><body><div id=app></div></body></html>";
const UI: UiResourceMeta = {
  csp: { connectDomains: ["https://api.example.com"], resourceDomains: ["https://*.cdn.example.com"] },
  permissions: { clipboardWrite: {} },
  prefersBorder: true,
};

// ext-apps' own JSON Schema, compiled as the 2020-12 draft it declares.
const ajv = new Ajv2020.default({ strict: false });
ajv.addSchema(schema, "ext-apps");
const validUiMeta = ajv.getSchema("ext-apps#/$defs/McpUiResourceMeta")!;
const validToolMeta = ajv.getSchema("ext-apps#/$defs/McpUiToolMeta")!;

let handle: HttpServerHandle;
let client: McpClient;
beforeAll(async () => {
  const server = new McpServer({ name: "apps", version: "1.0.0" });
  registerUiResource(server, "ui://weather/view.html", {
    name: "Weather view",
    description: "A forecast",
    html: HTML,
    ui: UI,
  });
  server.tool(
    "weather",
    uiTool(
      { description: "Forecast", input: z.object({ city: z.string() }) },
      { resourceUri: "ui://weather/view.html" },
    ),
    ({ city }) => `Sunny in ${city}`,
  );
  server.tool(
    "refresh",
    uiTool(
      { description: "Refreshes the view" },
      { resourceUri: "ui://weather/view.html", visibility: ["app"] },
    ),
    () => "ok",
  );
  server.resource("ui://weather/plain.html", { name: "Plain", mimeType: "text/html" }, () => HTML);
  handle = await server.serveHttp({ port: 0 });
  client = await McpClient.connect({ url: handle.url });
});
afterAll(async () => {
  await client?.close();
  await handle?.close();
});

describe("what an MCP Apps server emits, checked with ext-apps' schemas", () => {
  it("links each tool to its UI in _meta.ui and in the flat key older hosts read", async () => {
    const tools = await client.listTools();
    const weather = tools.find((t) => t.name === "weather")!;
    expect(weather._meta).toEqual({
      ui: { resourceUri: "ui://weather/view.html" },
      [RESOURCE_URI_META_KEY]: "ui://weather/view.html",
    });
    for (const tool of tools) {
      expect(McpUiToolMetaSchema.strict().safeParse(tool._meta!.ui).success).toBe(true);
      expect(validToolMeta(tool._meta!.ui), JSON.stringify(validToolMeta.errors)).toBe(true);
      expect(getToolUiResourceUri(tool)).toBe("ui://weather/view.html");
    }
  });

  it("lists the UI resource with the extension's MIME type and _meta.ui, and serves both on each read", async () => {
    const listed = (await client.listResources()).find((r) => r.uri === "ui://weather/view.html")!;
    expect(listed).toEqual({
      uri: "ui://weather/view.html",
      name: "Weather view",
      description: "A forecast",
      mimeType: RESOURCE_MIME_TYPE,
      _meta: { ui: UI },
    });
    const { contents } = await client.readResource("ui://weather/view.html");
    expect(contents).toEqual([
      { uri: "ui://weather/view.html", mimeType: RESOURCE_MIME_TYPE, text: HTML, _meta: { ui: UI } },
    ]);
    for (const meta of [listed._meta!.ui, contents[0]!._meta!.ui]) {
      expect(McpUiResourceMetaSchema.strict().safeParse(meta).success).toBe(true);
      expect(validUiMeta(meta), JSON.stringify(validUiMeta.errors)).toBe(true);
    }
  });

  it("refuses what the extension does not allow when it is registered", () => {
    const server = new McpServer({ name: "x", version: "1" });
    const register = (uri: string, ui?: unknown) =>
      registerUiResource(server, uri, { name: "n", html: "", ui: ui as UiResourceMeta });
    expect(() => register("https://example.com/view")).toThrow(
      'UI resource: "https://example.com/view" is not a ui:// URI',
    );
    expect(() => register("ui://a", { csp: { connectDomains: ["https://a.com; script-src *"] } })).toThrow(
      /csp.connectDomains holds "https:\/\/a.com; script-src \*", which is not an origin/,
    );
    expect(() => register("ui://b", { csp: { connectDomains: ["https://a.com/path"] } })).toThrow(
      /not an origin/,
    );
    expect(() => register("ui://c", { csp: { scriptDomains: [] } })).toThrow(
      /csp has no field "scriptDomains"/,
    );
    expect(() => register("ui://d", { permissions: { usb: {} } })).toThrow(/no permission "usb"/);
    expect(() => register("ui://e", { prefersBorder: "yes" })).toThrow(/prefersBorder is not a boolean/);
    expect(() => uiTool({}, { resourceUri: "ui://v", visibility: [] })).toThrow(/visibility must hold/);
    expect(() => uiTool({}, { resourceUri: "ui://v", visibility: ["model", "model"] })).toThrow(
      /visibility must hold/,
    );
    expect(() => uiTool({}, { resourceUri: "file:///etc/passwd" })).toThrow(/is not a ui:\/\/ URI/);
  });
});

describe("a host's view of a tool's UI", () => {
  it("reads a tool's UI resource with its HTML and _meta.ui, and tells who may call the tool", async () => {
    const tools = await client.listTools();
    const weather = tools.find((t) => t.name === "weather")!;
    const refresh = tools.find((t) => t.name === "refresh")!;
    expect(uiResourceOf(refresh)).toEqual({ resourceUri: "ui://weather/view.html", visibility: ["app"] });
    expect([
      isModelVisible(weather),
      isAppCallable(weather),
      isModelVisible(refresh),
      isAppCallable(refresh),
    ]).toEqual([true, true, false, true]);
    expect(await readUiResource(client, weather)).toEqual({
      uri: "ui://weather/view.html",
      mimeType: UI_MIME_TYPE,
      html: HTML,
      ui: UI,
    });
  });

  it("refuses a UI resource of another MIME type, one too large, and a tool with no UI", async () => {
    await expect(readUiResource(client, "ui://weather/plain.html")).rejects.toThrow(
      'ui://weather/plain.html: its MIME type is "text/html", not text/html;profile=mcp-app',
    );
    await expect(readUiResource(client, "ui://weather/view.html", { maxBytes: 10 })).rejects.toThrow(
      /larger than 10 bytes/,
    );
    await expect(readUiResource(client, { name: "plain" })).rejects.toThrow("tool plain has no UI resource");
    expect(() =>
      uiResourceOf({ name: "t", _meta: { ui: { resourceUri: "ui://x", visibility: ["everyone"] } } }),
    ).toThrow(/visibility must hold/);
    expect(uiResourceOf({ name: "t", _meta: { [RESOURCE_URI_META_KEY]: "ui://legacy" } })).toEqual({
      resourceUri: "ui://legacy",
    });
  });
});

describe("interop: a server built with ext-apps' own helpers on the official SDK", () => {
  let http: TestHttpServer;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const handler = createMcpHandler(() => {
      const server = new SdkServer({ name: "sdk-apps", version: "1.0.0" });
      registerAppResource(
        server,
        "Counter",
        "ui://counter/app.html",
        { description: "A counter" },
        async () => ({
          contents: [
            {
              uri: "ui://counter/app.html",
              mimeType: RESOURCE_MIME_TYPE,
              text: HTML,
              _meta: { ui: { csp: { connectDomains: ["https://api.example.com"] } } },
            },
          ],
        }),
      );
      registerAppTool(
        server,
        "count",
        {
          description: "Counts",
          _meta: { ui: { resourceUri: "ui://counter/app.html", visibility: ["model"] } },
        },
        async () => ({ content: [{ type: "text", text: "1" }] }),
      );
      return server;
    });
    http = new TestHttpServer(async (req, res) =>
      writeWebResponse(await handler.fetch(await toWebRequest(req, res)), res),
    );
    await http.listen("/mcp");
    close = async () => {
      await handler.close();
      await http.close();
    };
  });
  afterAll(async () => close?.());

  it("our host finds the tool's UI, reads it and checks it", async () => {
    const host = await McpClient.connect({ url: http.url });
    try {
      const [tool] = await host.listTools();
      expect(uiResourceOf(tool!)).toEqual({ resourceUri: "ui://counter/app.html", visibility: ["model"] });
      expect(isAppCallable(tool!)).toBe(false);
      const ui = await readUiResource(host, tool!);
      expect(ui).toEqual({
        uri: "ui://counter/app.html",
        mimeType: UI_MIME_TYPE,
        html: HTML,
        ui: { csp: { connectDomains: ["https://api.example.com"] } },
      });
    } finally {
      await host.close();
    }
  });
});
