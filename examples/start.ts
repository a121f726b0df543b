// `npm start`: starts the calculator server over stdio, and shows the handshake, the tool list and calls.
import { fileURLToPath } from "node:url";
import { McpClient } from "mcpkit/client";

const serverScript = fileURLToPath(new URL("./calculator-server.js", import.meta.url));
const show = (value: unknown) => JSON.stringify(value);

console.log(`Starting: node ${serverScript}\n`);
console.log("Discovery (a 2026-07-28 server; an older one would get the initialize handshake instead):");
let handshake = true;
const client = await McpClient.connect({
  command: process.execPath,
  args: [serverScript],
  trace: (direction, message) => {
    if (handshake) console.log(`  ${direction === "send" ? "→" : "←"} ${show(message)}`);
  },
});
handshake = false;
console.log(
  `\nConnected to ${client.serverInfo.name} ${client.serverInfo.version}, protocol ${client.protocolVersion}`,
);

console.log("\nTools:");
for (const tool of await client.listTools()) {
  console.log(`  ${tool.name}: ${tool.description}`);
  console.log(`    input: ${show(tool.inputSchema)}`);
}

for (const expression of ["123 * 456", "2 + 3 * 4", "(1 + 2) ^ 10 / 3", "1 / 0"]) {
  const result = await client.callTool("calculator", { expression });
  console.log(`\ncalculator(${show(expression)}) → ${result.isError ? "tool error: " : ""}${result.text()}`);
}

await client.close();
console.log("\nClosed; the server process has exited.");
