// A server that checks who calls it (MCP authorization): `serveHttp({ auth })` requires an access
// token from the authorization server, meant for this server, granting `notes:read`; one tool needs
// `notes:write` too. A client without a token is told where to get one; with a token it is served,
// and handlers see who it is in `ctx.auth`.
// Usage: node build/examples/protected-server.js   (starts its own authorization server)
import { McpClient } from "mcpkit/client";
import { McpServer } from "mcpkit/server";
import { z } from "zod";
import { CLIENT, startAuthorizationServer } from "./authorization-server.js";

const authorizationServer = await startAuthorizationServer();
const notes = ["Buy milk"];

const server = new McpServer({ name: "notes", version: "1.0.0" })
  .tool("list_notes", { description: "Lists the notes" }, (_args, ctx) =>
    [`Notes for ${ctx.auth?.subject}:`, ...notes].join("\n"),
  )
  .tool(
    "add_note",
    { description: "Adds a note", input: z.object({ text: z.string() }), scopes: ["notes:write"] },
    ({ text }) => {
      notes.push(text);
      return `Added "${text}"`;
    },
  );

const http = await server.serveHttp({
  auth: { issuer: authorizationServer.issuer, scopes: ["notes:read"] }, // resource: the endpoint's URL
});
console.log(`Protected server at ${http.url}`);

// No token: 401, and the challenge that leads a client to the authorization server.
const refused = await fetch(http.url, {
  method: "POST",
  headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
  body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
});
console.log(`Without a token: ${refused.status} ${refused.headers.get("www-authenticate")}`);
const metadataUrl = new URL("/.well-known/oauth-protected-resource/mcp", http.url);
console.log(`Its metadata: ${JSON.stringify(await (await fetch(metadataUrl)).json())}`);

/** A token for this server (RFC 8707 resource indicator), by the client credentials grant. */
async function tokenFor(scope: string): Promise<string> {
  const response = await fetch(`${authorizationServer.issuer}/token`, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      authorization: `Basic ${Buffer.from(`${CLIENT.id}:${CLIENT.secret}`).toString("base64")}`,
    },
    body: new URLSearchParams({ grant_type: "client_credentials", resource: http.url, scope }),
  });
  return ((await response.json()) as { access_token: string }).access_token;
}

const reader = await McpClient.connect({
  url: http.url,
  headers: { authorization: `Bearer ${await tokenFor("notes:read")}` },
});
console.log((await reader.callTool("list_notes", {})).text());
// A tool that needs a scope the token lacks: 403 insufficient_scope, before the tool runs.
await reader.callTool("add_note", { text: "Call Ada" }).catch((error: Error) => {
  console.log(`add_note with notes:read only: ${error.message}`);
});

const writer = await McpClient.connect({
  url: http.url,
  headers: { authorization: `Bearer ${await tokenFor("notes:read notes:write")}` },
});
console.log(`add_note with notes:write: ${(await writer.callTool("add_note", { text: "Call Ada" })).text()}`);

await Promise.all([reader.close(), writer.close()]);
await http.close();
await server.close();
await authorizationServer.close();
console.log("Closed.");
