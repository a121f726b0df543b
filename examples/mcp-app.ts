// MCP Apps: a server whose tool shows its result in an interactive UI (a ui:// HTML resource with
// its CSP origins), and a host that finds the tool's UI, reads it, checks it and would render it
// in a sandboxed frame; a host without MCP Apps gets the tool's text alone.
// Usage: node build/examples/mcp-app.js
import { McpClient } from "mcpkit/client";
import {
  apps,
  appsClient,
  clientRendersApps,
  isModelVisible,
  readUiResource,
  registerUiResource,
  uiResourceOf,
  uiTool,
} from "mcpkit/extensions/apps";
import { McpServer } from "mcpkit/server";
import { z } from "zod";

const VIEW = "ui://weather/forecast.html";
const server = new McpServer({ name: "weather", version: "1.0.0" }, { extensions: [apps()] });
registerUiResource(server, VIEW, {
  name: "Forecast view",
  description: "The forecast as an interactive chart",
  html: `<!DOCTYPE html><html><body><canvas id="chart"></canvas>
<script>/* draws the tool result the host pushes to it */</script></body></html>`,
  ui: { csp: { connectDomains: ["https://api.weather.example"] }, prefersBorder: true },
});
server.tool(
  "forecast",
  uiTool(
    { description: "The week's forecast for a city", input: z.object({ city: z.string() }) },
    { resourceUri: VIEW },
  ),
  // A host without MCP Apps shows only this text, so it says what the view would.
  ({ city }, ctx) => (clientRendersApps(ctx) ? `${city}: see the chart` : `${city}: sunny all week`),
);
// Called by the view's buttons, never offered to the model.
server.tool(
  "refresh_forecast",
  uiTool({ description: "Fetches the forecast again" }, { resourceUri: VIEW, visibility: ["app"] }),
  () => "refreshed",
);
const http = await server.serveHttp();

const host = await McpClient.connect({ url: http.url, extensions: [appsClient()] });
const tools = await host.listTools();
console.log(
  `tools for the model: ${tools
    .filter(isModelVisible)
    .map((t) => t.name)
    .join(", ")}`,
);
for (const tool of tools) console.log(`${tool.name} → ${uiResourceOf(tool)?.resourceUri ?? "no UI"}`);
const forecast = tools.find((tool) => tool.name === "forecast")!;
const view = await readUiResource(host, forecast);
console.log(`${view.uri}: ${view.mimeType}, ${view.html.length} characters of HTML`);
console.log(`connect-src allowed: ${view.ui.csp?.connectDomains?.join(" ") ?? "none"}`);
console.log(`forecast("Paris") → ${(await host.callTool("forecast", { city: "Paris" })).text()}`);
const textOnly = await McpClient.connect({ url: http.url });
console.log(
  `without MCP Apps: forecast("Paris") → ${(await textOnly.callTool("forecast", { city: "Paris" })).text()}`,
);
await textOnly.close();
await host.close();
await http.close();
