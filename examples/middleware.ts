// Middleware on both roles: the server times and logs every request with secret arguments
// redacted, and refuses admin tools to callers without the admin scope; the client tags each
// request it sends with an id in `_meta`, which the server's log shows.
// Usage: node build/examples/middleware.js

import { ErrorCode, McpError } from "mcpkit";
import { McpClient } from "mcpkit/client";
import { McpServer, type ServerMiddleware } from "mcpkit/server";
import { createMemoryTransportPair } from "mcpkit/transports/memory";
import { z } from "zod";

/** Timing: how long each request took, and how it ended. */
const timing: ServerMiddleware = async (ctx, next) => {
  const started = performance.now();
  let outcome = "ok";
  try {
    return await next();
  } catch (error) {
    outcome = `error ${(error as McpError).code}`;
    throw error;
  } finally {
    const ms = (performance.now() - started).toFixed(1);
    const what = ctx.method === "tools/call" ? `${ctx.method} ${String(ctx.params.name)}` : ctx.method;
    console.log(`[server] ${what} (${ctx.era}) took ${ms} ms: ${outcome}`);
  }
};

const SECRET = /password|token|secret/i;

/** Logging with redaction: the log never holds a secret argument; the handler still gets it. */
const logCalls: ServerMiddleware<"tools/call"> = (ctx, next) => {
  const shown = Object.fromEntries(
    Object.entries(ctx.params.arguments ?? {}).map(([key, value]) => [
      key,
      SECRET.test(key) ? "[redacted]" : value,
    ]),
  );
  const requestTag = ctx.meta?.["example.com/request"];
  console.log(`[server] call ${ctx.params.name} ${JSON.stringify(shown)} request ${String(requestTag)}`);
  return next();
};

/** An auth check: admin tools need a verified caller (`ctx.auth`, over HTTP with `auth`) with scope admin. */
const adminOnly: ServerMiddleware<"tools/call"> = (ctx, next) => {
  if (ctx.params.name.startsWith("admin_") && !ctx.auth?.scopes.includes("admin")) {
    throw new McpError(ErrorCode.InvalidRequest, `${ctx.params.name} needs the admin scope`);
  }
  return next();
};

const server = new McpServer({ name: "accounts", version: "1.0.0" })
  .tool(
    "login",
    { description: "Checks a password", input: z.object({ user: z.string(), password: z.string() }) },
    ({ user, password }) => (password === "hunter2" ? `welcome, ${user}` : "wrong password"),
  )
  .tool("admin_reset", { description: "Resets every account" }, () => "reset")
  .use(timing)
  .use("tools/call", logCalls)
  .use("tools/call", adminOnly);

const [clientSide, serverSide] = createMemoryTransportPair();
await server.connect(serverSide);
let sent = 0;
const client = await McpClient.connect({ transport: clientSide, protocolVersion: "2025-11-25" });
client.use(async (ctx, next) => {
  ctx.setMeta({ "example.com/request": `r${++sent}` });
  return next();
});

console.log((await client.callTool("login", { user: "ada", password: "hunter2" })).text());
const refused = await client.callTool("admin_reset").catch((error: McpError) => error);
console.log(`admin_reset refused: ${(refused as McpError).message}`);
await client.close();
