import { McpClient } from "mcpkit/client";
import { runClient } from "../../lib/client-common.mjs";
import { benchMiddleware } from "../../lib/middleware.mjs";

// The era is pinned by the version asked for: 2025-11-25 runs the initialize handshake (no
// server/discover probe), 2026-07-28 the stateless era.
const VERSIONS = { legacy: "2025-11-25", modern: "2026-07-28" };

runClient(async (target, config) => {
  const protocolVersion = VERSIONS[config.era];
  if (!protocolVersion) throw new Error(`unknown era ${config.era}`);
  const middleware = await benchMiddleware("client");
  const client =
    target.transport === "stdio"
      ? await McpClient.connect({ command: target.command, args: target.args, protocolVersion, middleware })
      : await McpClient.connect({ url: target.url, protocolVersion, middleware });
  if (client.protocolVersion !== protocolVersion)
    throw new Error(`asked for ${protocolVersion}, connected with ${client.protocolVersion}`);
  return {
    call: async (name, args) => (await client.callTool(name, args)).content[0].text,
    list: () => client.listTools(),
    // Created, polled without pause until it ends, then its result fetched (tasks/result in a
    // 2025-11-25 session; statelessly the completed tasks/get carries it).
    task: async (name, args) => {
      const task = await client.callTool(name, args, { task: true });
      if (!task.id) throw new Error(`${name} was answered inline, not as a task`);
      let status;
      do status = (await task.status()).status;
      while (!["completed", "failed", "cancelled"].includes(status));
      return (await task.result()).content[0].text;
    },
    close: () => client.close(),
  };
});
