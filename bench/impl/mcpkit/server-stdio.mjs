// One McpServer serves both eras: the client's first message decides.
import { exitOnSignal, ServerStats, serverConfig } from "../../lib/server-common.mjs";
import { createServer } from "./tools.mjs";

const config = serverConfig();
await (await createServer(config, new ServerStats(config))).serveStdio();
exitOnSignal();
