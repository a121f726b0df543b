// SDK v2 over Streamable HTTP on node:http (through ./node-bridge.mjs).
//  - legacy era (2025-11-25, sessions): the stateful wiring of the SDK's docs, one McpServer and one
//    WebStandardStreamableHTTPServerTransport per session, found by the Mcp-Session-Id header;
//  - modern era (2026-07-28, no sessions): `createMcpHandler(factory)`, a fresh instance per request.
import { randomUUID } from "node:crypto";
import { createMcpHandler, WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";
import { announce, exitOnSignal, ServerStats, serverConfig } from "../../lib/server-common.mjs";
import { nodeServer } from "./node-bridge.mjs";
import { createServer } from "./tools.mjs";

const config = serverConfig();
const stats = new ServerStats(config);
let handle;
if (config.era === "modern") {
  const handler = createMcpHandler(() => createServer(config, stats), { legacy: "reject" });
  handle = (request) => handler.fetch(request);
} else {
  const sessions = new Map();
  handle = async (request) => {
    const id = request.headers.get("mcp-session-id");
    const session = id === null ? undefined : sessions.get(id);
    if (session) return session.handleRequest(request);
    if (id !== null) {
      return Response.json(
        { jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null },
        { status: 404 },
      );
    }
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sid) => sessions.set(sid, transport),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await (await createServer(config, stats)).connect(transport);
    return transport.handleRequest(request);
  };
}
const http = nodeServer(handle);
http.listen(0, "127.0.0.1", () => announce(`http://127.0.0.1:${http.address().port}/mcp`));
exitOnSignal(() => http.close());
