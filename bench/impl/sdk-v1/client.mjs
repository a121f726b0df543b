import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { allPages, runClient } from "../../lib/client-common.mjs";

runClient(async (target, config) => {
  if (config.era !== "legacy") throw new Error("SDK v1 has only the handshake era");
  const client = new Client({ name: "bench-sdk-v1", version: "1.0.0" });
  await client.connect(
    target.transport === "stdio"
      ? new StdioClientTransport({ command: target.command, args: target.args })
      : new StreamableHTTPClientTransport(new URL(target.url)),
  );
  return {
    call: async (name, args) => (await client.callTool({ name, arguments: args })).content[0].text,
    list: () => allPages((cursor) => client.listTools(cursor === undefined ? undefined : { cursor })),
    close: () => client.close(),
  };
});
