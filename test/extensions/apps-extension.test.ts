import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { McpClient } from "../../src/client/index.js";
import {
  apps,
  appsClient,
  clientRendersApps,
  UI_EXTENSION,
  uiTool,
} from "../../src/extensions/apps/index.js";
import { McpServer } from "../../src/server/index.js";
import type { HttpServerHandle } from "../../src/transports/http/server/index.js";

let handle: HttpServerHandle;
beforeAll(async () => {
  const server = new McpServer({ name: "apps", version: "1.0.0" }, { extensions: [apps()] });
  server.tool(
    "chart",
    uiTool({ description: "A chart" }, { resourceUri: "ui://chart/view.html" }),
    (_args, ctx) =>
      clientRendersApps(ctx) ? "The chart is in the view." : "Sales rose 4% (no view: a text summary).",
  );
  handle = await server.serveHttp({ port: 0 });
});
afterAll(async () => handle?.close());

describe.each(["2025-11-25", "2026-07-28"] as const)(
  "the MCP Apps extension's declarations, %s",
  (protocolVersion) => {
    it("the server declares it, and a handler tells a host that renders views from one that does not", async () => {
      const host = await McpClient.connect({ url: handle.url, protocolVersion, extensions: [appsClient()] });
      const plain = await McpClient.connect({ url: handle.url, protocolVersion });
      try {
        expect(host.serverExtension(UI_EXTENSION)).toEqual({});
        expect((await host.callTool("chart")).text()).toBe("The chart is in the view.");
        expect((await plain.callTool("chart")).text()).toBe("Sales rose 4% (no view: a text summary).");
      } finally {
        await host.close();
        await plain.close();
      }
    });
  },
);

it("appsClient declares the MIME types a host renders", () => {
  expect(appsClient()).toEqual({ id: UI_EXTENSION, settings: { mimeTypes: ["text/html;profile=mcp-app"] } });
  expect(appsClient({ mimeTypes: ["text/html;profile=mcp-app", "text/uri-list"] }).settings).toEqual({
    mimeTypes: ["text/html;profile=mcp-app", "text/uri-list"],
  });
});
