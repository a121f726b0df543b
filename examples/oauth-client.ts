// A client of a protected MCP server: on 401 it finds the authorization server, registers itself,
// signs the user in (authorization code with PKCE), and calls the tool with the token. Everything
// runs in this process: a real authorization server (oidc-provider, a dev dependency of mcpkit), an
// MCP server that checks tokens, and a "user" who approves the sign-in without a browser.
// Usage: node build/examples/oauth-client.js
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { McpClient } from "mcpkit/client";
import { type AuthorizationUrlHandler, MemoryTokenStore, OAuthSession } from "mcpkit/client/auth";
import { McpServer } from "mcpkit/server";

async function listen(server: ReturnType<typeof createServer>): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

// --- The authorization server: oidc-provider, approving every sign-in as "alice".
const asHttp = createServer();
const issuer = await listen(asHttp);
const mcpHttp = createServer();
const origin = await listen(mcpHttp);
const resource = `${origin}/mcp`;
const rs = { client_id: "notes-server", client_secret: "notes-server-secret" };

// oidc-provider warns about its development defaults: not this example's subject.
const { warn, info } = console;
console.warn = console.info = () => {};
const moduleName = "oidc-provider"; // it ships no types
const { default: Provider } = await import(moduleName);
const provider = new Provider(issuer, {
  clients: [{ ...rs, redirect_uris: [], response_types: [], grant_types: [] }],
  cookies: { keys: ["an example cookie key"] },
  findAccount: (_ctx: unknown, accountId: string) => ({ accountId, claims: () => ({ sub: accountId }) }),
  interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
  issueRefreshToken: () => true,
  features: {
    devInteractions: { enabled: false },
    registration: { enabled: true },
    introspection: { enabled: true },
    resourceIndicators: {
      enabled: true,
      defaultResource: () => resource,
      useGrantedResource: () => true,
      getResourceServerInfo: () => ({ scope: "notes:read", audience: resource, accessTokenFormat: "opaque" }),
    },
  },
});
const oidc = provider.callback();
asHttp.on("request", async (req: IncomingMessage, res: ServerResponse) => {
  if (!req.url?.startsWith("/interaction/")) return oidc(req, res);
  // Alice signs in and grants what the client asked for.
  const { prompt, params, session } = await provider.interactionDetails(req, res);
  if (prompt.name === "login") {
    return provider.interactionFinished(req, res, { login: { accountId: "alice" } });
  }
  const grant = new provider.Grant({ accountId: session.accountId, clientId: params.client_id });
  for (const [indicator, scopes] of Object.entries(prompt.details.missingResourceScopes ?? {})) {
    grant.addResourceScope(indicator, (scopes as string[]).join(" "));
  }
  await provider.interactionFinished(req, res, { consent: { grantId: await grant.save() } });
});

// --- The MCP server: a tool, behind a token check by introspection.
const notes = new McpServer({ name: "notes", version: "1.0.0" }).tool(
  "read_notes",
  { description: "Reads the notes" },
  () => "1. Buy milk  2. Call Bob",
);
async function tokenIsGood(authorization: string | undefined): Promise<boolean> {
  const token = authorization?.startsWith("Bearer ") ? authorization.slice(7) : undefined;
  if (!token) return false;
  const response = await fetch(`${issuer}/token/introspection`, {
    method: "POST",
    headers: {
      authorization: `Basic ${Buffer.from(`${rs.client_id}:${rs.client_secret}`).toString("base64")}`,
    },
    body: new URLSearchParams({ token }),
  });
  const info = (await response.json()) as { active: boolean; aud?: string; scope?: string };
  return info.active && info.aud === resource && (info.scope ?? "").split(" ").includes("notes:read");
}
mcpHttp.on("request", async (req: IncomingMessage, res: ServerResponse) => {
  if (req.url === "/.well-known/oauth-protected-resource/mcp") {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ resource, authorization_servers: [issuer], scopes_supported: ["notes:read"] }));
    return;
  }
  if (!(await tokenIsGood(req.headers.authorization))) {
    const challenge = `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`;
    res.writeHead(401, { "www-authenticate": challenge }).end();
    return;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = Object.entries(req.headers).flatMap(([name, value]) =>
    typeof value === "string" ? [[name, value] as [string, string]] : [],
  );
  const body = req.method === "POST" ? Buffer.concat(chunks).toString("utf8") : undefined;
  const answer = await notes.fetch(
    new Request(`http://localhost${req.url}`, { method: req.method, headers, body }),
  );
  res.writeHead(answer.status, Object.fromEntries(answer.headers));
  res.end(Buffer.from(await answer.arrayBuffer()));
});

// --- The client. A real program leaves out onAuthorizationUrl: the user's browser opens, and
// the client receives the redirect on 127.0.0.1 itself. Here the "browser" follows the redirects.
const signIn: AuthorizationUrlHandler = async (url, { redirectUri }) => {
  console.log(
    `sign in at ${url.origin}${url.pathname}: scope=${url.searchParams.get("scope")}, PKCE ${url.searchParams.get("code_challenge_method")}`,
  );
  const cookies = new Map<string, string>();
  let next = url.href;
  while (!next.startsWith(redirectUri)) {
    const cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    const response = await fetch(next, { redirect: "manual", headers: { cookie } });
    for (const set of response.headers.getSetCookie()) {
      const pair = set.split(";")[0]!;
      cookies.set(pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1));
    }
    await response.arrayBuffer();
    next = new URL(response.headers.get("location")!, next).href;
  }
  return next; // the redirect back, with the code
};

const session = new OAuthSession(resource, { onAuthorizationUrl: signIn, store: new MemoryTokenStore() });
const client = await McpClient.connect({ url: resource, auth: session });
console.log(`connected: protocol ${client.protocolVersion}`);
console.log(`read_notes → ${(await client.callTool("read_notes")).text()}`);
const tokens = await session.tokens();
console.log(
  `token: ${tokens?.token_type}, scope ${tokens?.scope}, refresh token ${tokens?.refresh_token ? "kept" : "none"}`,
);

await client.close();
await notes.close();
for (const server of [mcpHttp, asHttp]) {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}
Object.assign(console, { warn, info });
console.log("Closed.");
