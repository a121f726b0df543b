// SDK v1 over Streamable HTTP, wired as the SDK's own stateful example does: one McpServer and one
// StreamableHTTPServerTransport per session, found by the Mcp-Session-Id header, on node:http.
import { randomUUID } from "node:crypto";
import { createServer as createHttpServer } from "node:http";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { announce, exitOnSignal, ServerStats, serverConfig } from "../../lib/server-common.mjs";
import { createServer } from "./tools.mjs";

const config = serverConfig();
const stats = new ServerStats(config);
const sessions = new Map();

const http = createHttpServer(async (req, res) => {
  try {
    const id = req.headers["mcp-session-id"];
    const session = id === undefined ? undefined : sessions.get(id);
    if (session) return await session.handleRequest(req, res);
    if (id !== undefined) {
      res.writeHead(404, { "content-type": "application/json" });
      res.end(
        JSON.stringify({ jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null }),
      );
      return;
    }
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sid) => sessions.set(sid, transport),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await (await createServer(config, stats)).connect(transport);
    await transport.handleRequest(req, res);
  } catch (error) {
    if (!res.headersSent) res.writeHead(500).end(String(error));
  }
});
http.keepAliveTimeout = 60_000;
http.listen(0, "127.0.0.1", () => announce(`http://127.0.0.1:${http.address().port}/mcp`));
exitOnSignal(() => http.close());
