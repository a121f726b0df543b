import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { exitOnSignal, ServerStats, serverConfig } from "../../lib/server-common.mjs";
import { createServer } from "./tools.mjs";

const config = serverConfig();
await (await createServer(config, new ServerStats(config))).connect(new StdioServerTransport());
exitOnSignal();
