// The seed's file-read client: start the reference filesystem server on a directory, list its tools,
// read a file, close. Usage: node build/examples/read-file.js <dir> <file>
import { createRequire } from "node:module";
import { McpClient } from "mcpkit/client";

const [dir = process.cwd(), file = "README.md"] = process.argv.slice(2);
// The reference server is a dev dependency; `npx -y @modelcontextprotocol/server-filesystem` works too.
const serverScript = createRequire(import.meta.url).resolve(
  "@modelcontextprotocol/server-filesystem/dist/index.js",
);

const client = await McpClient.connect({ command: process.execPath, args: [serverScript, dir] });
for (const tool of await client.listTools()) console.log(`tool: ${tool.name}`);

const result = await client.callTool("read_text_file", { path: `${dir}/${file}`, head: 5 });
console.log(result.isError ? `tool failed: ${result.text()}` : `content:\n${result.text()}`);

await client.close();
