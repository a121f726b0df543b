// The proxy as a library: the servers of examples/mcp.json served as one MCP server over Streamable
// HTTP, with the write tools hidden and every call audited; then a client of the proxy.
// Usage: node build/examples/proxy.js   (the CLI: mcpkit proxy --config examples/mcp.json --http …)
import { fileURLToPath } from "node:url";
import { McpClient } from "mcpkit/client";
import { type AuditRecord, createProxyServer } from "mcpkit/proxy";

// The config beside this file's source (examples/), from where it is built (build/examples/).
const config = fileURLToPath(new URL("../../examples/mcp.json", import.meta.url));
const audit: AuditRecord[] = [];

const proxy = await createProxyServer({
  config, // "remote" is disabled there, so math and files are served
  deny: ["files/write_*", "files/edit_*", "files/move_*"], // neither listed nor callable
  audit: (record) => {
    audit.push(record); // AuditLog.open("audit.jsonl") writes JSON lines instead
  },
});
console.log(`Upstreams: ${proxy.servers.join(", ")}; hidden tools: ${JSON.stringify(proxy.hiddenTools())}`);
const http = await proxy.serveHttp();

const client = await McpClient.connect({ url: http.url });
console.log(`Tools at ${http.url}:`);
for (const tool of await client.listTools()) console.log(`  ${tool.name}`);

console.log(
  `math__calculator → ${(await client.callTool("math__calculator", { expression: "6 * 7" })).text()}`,
);
const listing = await client.callTool("files__list_directory", { path: "." });
console.log(
  `files__list_directory → ${listing.isError ? "error: " : ""}${listing.text().split("\n").length} entries`,
);
const denied = await client
  .callTool("files__write_file", { path: "x.txt", content: "x" })
  .catch((e: Error) => e);
console.log(`files__write_file → ${denied instanceof Error ? denied.message : "allowed?!"}`);

console.log("Audit:");
for (const { server, tool, outcome, argsDigest } of audit) {
  console.log(`  ${server}/${tool}: ${outcome} (arguments ${argsDigest.slice(0, 12)}…)`);
}

await client.close();
await http.close();
await proxy.close(); // the upstream processes are gone
