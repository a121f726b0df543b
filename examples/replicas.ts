// Three replicas of one server on Redis behind a round-robin balancer with no sticky sessions: a
// 2025-11-25 session opened through the balancer is served by all three, request by request.
// Usage: node build/examples/replicas.js [redis://host:port]   (default redis://127.0.0.1:6379)
// Each replica is this file run as a child process with --replica; in production they are separate
// machines or containers running `mcpkit serve <server> --port 3000 --redis redis://…`.
import { fork } from "node:child_process";
import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { McpClient } from "mcpkit/client";
import { redisReplication } from "mcpkit/redis";
import { McpServer } from "mcpkit/server";

const [mode, url = "redis://127.0.0.1:6379"] =
  process.argv[2] === "--replica" ? ["replica", process.argv[3]] : ["main", process.argv[2]];

if (mode === "replica") {
  // One replica: the same server as every other, its sessions kept in Redis.
  const server = new McpServer({ name: "greeter", version: "1.0.0" }).tool(
    "greet",
    { description: "Says hello, and which replica answered" },
    () => `Hello from replica ${process.pid}`,
  );
  const replication = await redisReplication({
    url: url!,
    // Every replica must sign 2026-07-28 request state with the same secret.
    requestStateSecret: process.env.MCPKIT_REQUEST_STATE_SECRET ?? "example-only-secret",
  });
  const http = await server.serveHttp({ port: 0, replication });
  process.send?.(http.port);
  process.on("disconnect", () => void http.close().then(() => replication.close()));
} else {
  // Three replicas, each answering on its own port.
  const replicas = [1, 2, 3].map(() => fork(new URL(import.meta.url), ["--replica", url!]));
  const ports = await Promise.all(
    replicas.map(
      (child) =>
        new Promise<number>((resolve, reject) => {
          child.once("message", (port) => resolve(port as number));
          child.once("exit", (code) => reject(new Error(`a replica exited (${code}): is Redis at ${url}?`)));
        }),
    ),
  ).catch((error: Error) => {
    console.error(error.message);
    for (const child of replicas) child.kill();
    process.exit(1);
  });

  // The balancer: each request to the next replica, whatever its session.
  let next = 0;
  const balancer = createServer((req, res) => {
    const port = ports[next++ % ports.length]!;
    const upstream = request({
      port,
      host: "127.0.0.1",
      path: req.url,
      method: req.method,
      headers: req.headers,
    });
    upstream.on("response", (reply) => {
      res.writeHead(reply.statusCode ?? 502, reply.headers);
      reply.pipe(res);
    });
    upstream.on("error", () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => balancer.listen(0, "127.0.0.1", resolve));
  const endpoint = `http://127.0.0.1:${(balancer.address() as AddressInfo).port}/mcp`;
  console.log(`3 replicas on ${url}, behind ${endpoint}`);

  const client = await McpClient.connect({ url: endpoint, protocolVersion: "2025-11-25" });
  console.log(`one session, protocol ${client.protocolVersion}`);
  const answers = new Set<string>();
  for (let i = 0; i < 3; i++) {
    const text = (await client.callTool("greet")).text();
    answers.add(text);
    console.log(`  greet → ${text}`);
  }
  console.log(`${answers.size} replicas served the session`);
  await client.close();
  balancer.closeAllConnections();
  balancer.close();
  for (const child of replicas) child.disconnect();
}
