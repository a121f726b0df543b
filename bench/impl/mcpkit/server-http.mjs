// One McpServer serves both eras on one endpoint: 2025-11-25 sessions and stateless 2026-07-28 POSTs.
import { announce, exitOnSignal, ServerStats, serverConfig } from "../../lib/server-common.mjs";
import { createServer } from "./tools.mjs";

const config = serverConfig();
const server = await createServer(config, new ServerStats(config));
// `auth`: protected by the bench's own issuer (bench/lib/oauth-issuer.mjs), JWT access tokens;
// `sessionless`: the endpoint keeps no sessions.
const http = await server.serveHttp({
  port: 0,
  host: "127.0.0.1",
  ...(config.auth && { auth: config.auth }),
  ...(config.sessionless && { sessionless: true }),
});
announce(http.url);
exitOnSignal(() => http.close());
