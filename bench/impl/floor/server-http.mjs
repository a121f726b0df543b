// The floor over HTTP: a node:http server answering each JSON POST with JSON. `initialize` opens a
// session (an id in a Map, as little state as a session can have); every other request is answered
// whatever its session.
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { announce, exitOnSignal, ServerStats, serverConfig } from "../../lib/server-common.mjs";
import { floorServer } from "./tools.mjs";

const config = serverConfig();
const handle = floorServer(config, new ServerStats(config));
const sessions = new Map();

const server = createServer((req, res) => {
  const chunks = [];
  req.on("data", (chunk) => chunks.push(chunk));
  req.on("end", () => {
    const message = JSON.parse(chunks.length === 1 ? chunks[0].toString() : Buffer.concat(chunks).toString());
    const response = handle(message);
    if (!response) {
      res.writeHead(202).end();
      return;
    }
    const headers = { "content-type": "application/json" };
    if (message.method === "initialize") {
      const id = randomUUID();
      sessions.set(id, { protocolVersion: message.params.protocolVersion, lastSeen: Date.now() });
      headers["mcp-session-id"] = id;
    }
    const body = JSON.stringify(response);
    headers["content-length"] = Buffer.byteLength(body);
    res.writeHead(200, headers).end(body);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => announce(`http://127.0.0.1:${server.address().port}/mcp`));
exitOnSignal(() => server.close());
