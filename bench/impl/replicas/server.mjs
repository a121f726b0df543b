// One replica for bench/replicas.mjs, forked with an IPC channel: an `echo` tool served over HTTP,
// in memory or on Redis (argv[2]: "memory" or a Redis URL). It sends its port once listening and
// answers "cpu" with its process.cpuUsage(), "gc" after forced collections.
import { McpServer } from "mcpkit/server";

const where = process.argv[2];
const server = new McpServer(
  { name: "bench-replica", version: "1.0.0" },
  { requestStateSecret: "bench" },
).tool(
  "echo",
  {
    description: "Echoes the message back",
    input: { type: "object", properties: { message: { type: "string" } }, required: ["message"] },
  },
  ({ message }) => message,
);
let replication;
if (where !== "memory") {
  const { redisReplication } = await import("mcpkit/redis");
  replication = await redisReplication({ url: where, keyPrefix: "bench:", requestStateSecret: "bench" });
}
const http = await server.serveHttp({
  port: 0,
  maxSessions: 100_000,
  ...(replication ? { replication } : {}),
});
process.on("message", (message) => {
  if (message === "cpu") process.send({ cpu: process.cpuUsage() });
});
process.on(
  "disconnect",
  () =>
    void http
      .close()
      .then(() => replication?.close())
      .then(() => process.exit(0)),
);
process.send({ port: http.port });
