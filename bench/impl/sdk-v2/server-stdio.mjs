// SDK v2 over stdio through its serving entry, `serveStdio(factory)`, which serves both eras: the
// client's opening message picks the era and one server instance from the factory is pinned to the
// connection.
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { exitOnSignal, ServerStats, serverConfig } from "../../lib/server-common.mjs";
import { createServer } from "./tools.mjs";

const config = serverConfig();
const stats = new ServerStats(config);
serveStdio(() => createServer(config, stats));
exitOnSignal();
