/**
 * The floor's tools and dispatch: plain objects and one switch, no validation. Shared by the floor's
 * stdio and HTTP servers.
 */
import {
  BIG_DESCRIPTION,
  bigText,
  ECHO_DESCRIPTION,
  fillerDescription,
  fillerName,
  messageJsonSchema,
  STATS_DESCRIPTION,
  statsJsonSchema,
} from "../../lib/workload.mjs";

export function floorServer(config, stats) {
  const inputs = Array.from({ length: config.tools }, () => messageJsonSchema());
  stats.schemasBuilt();
  const tools = [
    { name: "echo", description: ECHO_DESCRIPTION, inputSchema: messageJsonSchema() },
    { name: "big", description: BIG_DESCRIPTION, inputSchema: { type: "object", properties: {} } },
    { name: "stats", description: STATS_DESCRIPTION, inputSchema: statsJsonSchema() },
  ];
  for (let i = 0; i < config.tools; i++) {
    tools.push({ name: fillerName(i), description: fillerDescription(i), inputSchema: inputs[i] });
  }
  stats.registered();

  const text = (value) => ({ content: [{ type: "text", text: value }] });
  const call = (params) => {
    switch (params.name) {
      case "stats":
        return text(stats.report(params.arguments?.gc === true));
      case "big":
        return text(bigText());
      default:
        return text(params.arguments.message);
    }
  };

  /** The JSON-RPC response to a request, or undefined for a notification. */
  return (message) => {
    if (message.id === undefined) return undefined;
    let result;
    switch (message.method) {
      case "initialize":
        result = {
          protocolVersion: message.params.protocolVersion,
          capabilities: { tools: {} },
          serverInfo: { name: "floor", version: "1.0.0" },
        };
        break;
      case "tools/list":
        result = { tools };
        break;
      case "tools/call":
        result = call(message.params);
        break;
      case "ping":
        result = {};
        break;
      default:
        return { jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "Method not found" } };
    }
    return { jsonrpc: "2.0", id: message.id, result };
  };
}
