// Streamable HTTP: one McpServer served on node:http (with the legacy HTTP+SSE transport beside it),
// and the same server as a web-standard `fetch` handler. A client of each, then everything closed.
// Usage: node build/examples/http-server.js [port]   (default: any free port)
import { McpClient } from "mcpkit/client";
import { McpServer } from "mcpkit/server";
import { z } from "zod";

const server = new McpServer({ name: "countdown", version: "1.0.0" }).tool(
  "countdown",
  {
    description: "Counts down, reporting progress",
    input: z.object({ from: z.number().int().min(1).max(10) }),
  },
  async ({ from }, ctx) => {
    for (let left = from; left > 0; left--) {
      ctx.progress(from - left + 1, from, `${left}…`); // sent only if the client asked for progress
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return "Lift-off!";
  },
);

const http = await server.serveHttp({ port: Number(process.argv[2] ?? 0), legacySse: true });
console.log(`Streamable HTTP at ${http.url}`);

const client = await McpClient.connect({ url: http.url });
console.log(`Streamable HTTP client: protocol ${client.protocolVersion}`);
const result = await client.callTool(
  "countdown",
  { from: 3 },
  {
    onProgress: ({ progress, total, message }) => console.log(`  progress ${progress}/${total} ${message}`),
  },
);
console.log(`  → ${result.text()}`);

// An old client: revision 2024-11-05 over its HTTP+SSE transport (GET /sse, then POST /messages).
const legacy = await McpClient.connect({
  url: new URL("/sse", http.url),
  transport: "sse",
  protocolVersion: "2024-11-05",
});
console.log(`HTTP+SSE client: protocol ${legacy.protocolVersion}`);
console.log(`  → ${(await legacy.callTool("countdown", { from: 1 })).text()}`);

// `server.fetch` is the same endpoint as a `(Request) => Response` function, to mount in Hono, Bun,
// Deno… (`app.all("/mcp", (c) => server.fetch(c.req.raw))`). Here a client calls it in-process.
const inProcess = await McpClient.connect({
  url: "http://localhost/mcp",
  fetch: (input, init) => server.fetch(new Request(input, init)),
});
console.log(`fetch-handler client: protocol ${inProcess.protocolVersion}`);
console.log(`  → ${(await inProcess.callTool("countdown", { from: 2 })).text()}`);

await Promise.all([client.close(), legacy.close(), inProcess.close()]);
await http.close();
await server.close();
console.log("Closed.");
