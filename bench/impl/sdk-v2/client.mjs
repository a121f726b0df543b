import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { runClient } from "../../lib/client-common.mjs";

runClient(async (target, config) => {
  // Legacy: the plain 2025 handshake (the SDK's default). Modern: pinned to 2026-07-28.
  const options = config.era === "modern" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {};
  const client = new Client({ name: "bench-sdk-v2", version: "2.0.0" }, options);
  await client.connect(
    target.transport === "stdio"
      ? new StdioClientTransport({ command: target.command, args: target.args })
      : new StreamableHTTPClientTransport(new URL(target.url)),
  );
  return {
    call: async (name, args) => (await client.callTool({ name, arguments: args })).content[0].text,
    // Without a cursor the v2 client walks every page itself; "refresh" makes repeated listings go to
    // the server instead of the client's response cache.
    list: async () => (await client.listTools(undefined, { cacheMode: "refresh" })).tools,
    close: () => client.close(),
  };
});
