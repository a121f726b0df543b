// The server of bench/soak.mjs: an echo tool and a `memory` tool that reports this process's
// memory after a full garbage collection (run with --expose-gc), over stdio or HTTP.
import { McpServer } from "../../dist/server/index.js";

const server = new McpServer({ name: "soak", version: "1" })
  .tool("echo", { input: { type: "object", properties: { text: { type: "string" } } } }, ({ text }) =>
    String(text),
  )
  .tool("memory", {}, () => {
    globalThis.gc?.();
    const { rss, heapUsed } = process.memoryUsage();
    return { content: [{ type: "text", text: JSON.stringify({ rss, heapUsed }) }] };
  });

if (process.argv[2] === "http") {
  const handle = await server.serveHttp({ port: 0 });
  process.stdout.write(`${handle.url}\n`);
} else {
  await server.serveStdio();
}
