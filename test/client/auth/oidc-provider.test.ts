import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { FileTokenStore, MemoryTokenStore, OAuthSession } from "../../../src/client/auth/index.js";
import { ConfigError, McpClient, MultiServerClient } from "../../../src/client/index.js";
import {
  browserlessUser,
  type ProtectedServer,
  startAuthorizationServer,
  startProtectedServer,
  type TestAuthorizationServer,
} from "../../helpers/oauth-servers.js";

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

async function setup(
  options: Parameters<typeof startAuthorizationServer>[0] = {},
  dpop = false,
  toolScopes?: Record<string, string>,
) {
  const as = await startAuthorizationServer(options);
  cleanup.push(() => as.close());
  const server = await startProtectedServer({ as, dpop, ...(toolScopes && { toolScopes }) });
  cleanup.push(() => server.close());
  return { as, server };
}

async function connect(options: Parameters<typeof McpClient.connect>[0]) {
  const client = await McpClient.connect(options);
  cleanup.push(() => client.close());
  return client;
}

/** The access tokens the MCP server was sent, without the scheme. */
function tokensSeen(server: ProtectedServer): string[] {
  return server.seen.flatMap((r) => (r.authorization ? [r.authorization.split(" ")[1]!] : []));
}

/** The requests to any server but the MCP server that carried one of its tokens. */
function leaked(as: TestAuthorizationServer, tokens: string[]) {
  return as.seen.filter((r) => tokens.some((t) => r.authorization?.includes(t)));
}

describe("OAuth against oidc-provider", () => {
  it("signs in with dynamic registration, PKCE and a resource-bound token, then calls tools", async () => {
    const { as, server } = await setup();
    const user = browserlessUser();
    const client = await connect({ url: server.url, auth: { onAuthorizationUrl: user.handler } });
    expect((await client.callTool("echo", { text: "hi" })).text()).toBe("hi");
    expect(user.visits).toHaveLength(1);
    const url = user.visits[0]!;
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.get("resource")).toBe(server.url);
    expect(url.searchParams.get("scope")?.split(" ")).toContain("mcp:tools");
    expect(as.seen.some((r) => r.path === "/reg" || r.path === "/register")).toBe(true);
    expect(as.grants).toEqual(["authorization_code"]);
    const tokens = tokensSeen(server);
    expect(tokens.length).toBeGreaterThan(0);
    expect(leaked(as, tokens)).toEqual([]);
    const info = await as.introspect(tokens.at(-1)!);
    expect(info).toMatchObject({ active: true, aud: server.url });
  });

  it("receives the redirect on its loopback receiver when the host only shows the URL, then stops listening", async () => {
    const { server } = await setup();
    const user = browserlessUser({ visitRedirect: true });
    const client = await connect({ url: server.url, auth: { onAuthorizationUrl: user.handler } });
    expect((await client.callTool("echo", { text: "hi" })).text()).toBe("hi");
    const redirect = new URL(user.redirects[0]!);
    expect(redirect.hostname).toBe("127.0.0.1");
    await expect(fetch(redirect)).rejects.toThrow();
  });

  it("connects when signing in takes longer than the probe and the handshake may", async () => {
    const { server } = await setup();
    const user = browserlessUser();
    // The user's time is the subject, and there is no event for it: signing in takes longer than the
    // whole budget. A loaded machine only makes it longer, so it cannot pass wrongly; the budget is
    // generous because connecting again after signing in must fit in it.
    const handshakeTimeout = 2000;
    const slowUser: typeof user.handler = async (url, context) => {
      await new Promise((resolve) => setTimeout(resolve, handshakeTimeout + 500));
      return user.handler(url, context);
    };
    const client = await connect({
      url: server.url,
      auth: { onAuthorizationUrl: slowUser },
      probeTimeout: 200,
      handshakeTimeout,
    });
    expect((await client.callTool("echo", { text: "late" })).text()).toBe("late");
    expect(user.visits).toHaveLength(1);
  });

  it("steps up on 403 insufficient_scope, asking for the scopes held and the missing one", async () => {
    const { server } = await setup({}, false, { admin: "mcp:admin" });
    const user = browserlessUser();
    const session = new OAuthSession(server.url, { onAuthorizationUrl: user.handler });
    const client = await connect({ url: server.url, auth: session });
    await client.callTool("echo", { text: "first" });
    expect((await client.callTool("admin")).text()).toBe("done");
    expect(user.visits).toHaveLength(2);
    expect(user.visits[1]!.searchParams.get("scope")?.split(" ")).toEqual(
      expect.arrayContaining(["mcp:tools", "mcp:admin"]),
    );
    expect((await session.tokens())!.scope?.split(" ")).toEqual(
      expect.arrayContaining(["mcp:tools", "mcp:admin"]),
    );
    // The broader token still does what the first one did.
    expect((await client.callTool("echo", { text: "again" })).text()).toBe("again");
    expect(user.visits).toHaveLength(2);
  });

  it("refreshes a token about to expire before using it, without signing in again", async () => {
    // Tokens that live 10 s are inside the client's refresh margin from the start.
    const { as, server } = await setup({ accessTokenTtl: 10 });
    const user = browserlessUser();
    const client = await connect({ url: server.url, auth: { onAuthorizationUrl: user.handler } });
    await client.callTool("echo", { text: "one" });
    await client.callTool("echo", { text: "two" });
    expect(user.visits).toHaveLength(1);
    expect(as.grants[0]).toBe("authorization_code");
    expect(as.grants.slice(1).every((g) => g === "refresh_token")).toBe(true);
    expect(as.grants.length).toBeGreaterThan(1);
  });

  it("refreshes on 401 invalid_token, and signs in again once the grant is revoked", async () => {
    const { as, server } = await setup();
    const user = browserlessUser();
    const store = new MemoryTokenStore();
    const session = new OAuthSession(server.url, { onAuthorizationUrl: user.handler, store });
    const client = await connect({ url: server.url, auth: session });
    await client.callTool("echo", { text: "one" });
    const first = await session.tokens();
    server.distrust(first!.access_token);
    await client.callTool("echo", { text: "two" });
    expect(as.grants).toEqual(["authorization_code", "refresh_token"]);
    expect(user.visits).toHaveLength(1);

    const second = await session.tokens();
    expect(second!.access_token).not.toBe(first!.access_token);
    // Revoking a token revokes its whole grant at oidc-provider: the refresh token goes too.
    await as.revoke(second!.access_token, "access_token");
    expect((await client.callTool("echo", { text: "three" })).text()).toBe("three");
    expect(user.visits).toHaveLength(2);
  });

  it("binds tokens to a DPoP key and proves possession on every request when the server asks for DPoP", async () => {
    const { as, server } = await setup({}, true);
    const user = browserlessUser();
    const session = new OAuthSession(server.url, { onAuthorizationUrl: user.handler });
    const client = await connect({ url: server.url, auth: session });
    await client.callTool("echo", { text: "one" });
    await client.callTool("echo", { text: "two" });
    const tokens = await session.tokens();
    expect(tokens!.token_type).toBe("dpop");
    const info = await as.introspect(tokens!.access_token);
    expect(info.cnf?.jkt).toEqual(expect.any(String));
    const authorized = server.seen.filter((r) => r.authorization);
    expect(authorized.length).toBeGreaterThan(1);
    expect(authorized.every((r) => r.authorization!.startsWith("DPoP "))).toBe(true);
  });

  it("keeps tokens in a file store (mode 0600) that a later connection signs in with", async () => {
    const { server } = await setup();
    const directory = await mkdtemp(join(tmpdir(), "mcpkit-oauth-"));
    cleanup.push(() => rm(directory, { recursive: true, force: true }));
    const store = new FileTokenStore(directory);
    const user = browserlessUser();
    const first = await McpClient.connect({
      url: server.url,
      auth: { onAuthorizationUrl: user.handler, store },
    });
    await first.callTool("echo", { text: "one" });
    await first.close();
    const file = store.fileOf(new URL(server.url).href);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(directory)).mode & 0o077).toBe(0);

    const second = await connect({ url: server.url, auth: { onAuthorizationUrl: user.handler, store } });
    expect((await second.callTool("echo", { text: "two" })).text()).toBe("two");
    expect(user.visits).toHaveLength(1);
  });

  it("uses a pre-registered confidential client with client_secret_basic", async () => {
    const { as, server } = await setup({
      clients: [
        {
          client_id: "registered-app",
          client_secret: "registered-secret",
          // A native app: its loopback redirect may come on any port (RFC 8252 §7.3).
          application_type: "native",
          redirect_uris: ["http://127.0.0.1/callback"],
          token_endpoint_auth_method: "client_secret_basic",
        },
      ],
    });
    const user = browserlessUser();
    const client = await connect({
      url: server.url,
      auth: {
        clientId: "registered-app",
        clientSecret: "registered-secret",
        issuer: as.issuer,
        onAuthorizationUrl: user.handler,
      },
    });
    expect((await client.callTool("echo", { text: "hi" })).text()).toBe("hi");
    expect(as.seen.some((r) => r.path === "/reg")).toBe(false);
    expect(as.seen.some((r) => r.path === "/token" && r.authorization?.startsWith("Basic "))).toBe(true);
  });

  it("gets a token with the client credentials grant, no user involved", async () => {
    const { as, server } = await setup({
      clients: [
        {
          client_id: "service",
          client_secret: "service-secret",
          redirect_uris: [],
          response_types: [],
          grant_types: ["client_credentials"],
        },
      ],
    });
    const client = await connect({
      url: server.url,
      auth: {
        clientId: "service",
        clientSecret: "service-secret",
        issuer: as.issuer,
        grant: { type: "client_credentials" },
      },
    });
    expect((await client.callTool("echo", { text: "hi" })).text()).toBe("hi");
    expect(as.grants).toEqual(["client_credentials"]);
  });

  it("authorizes the servers of a MultiServerClient config whose entry has auth", async () => {
    const { server } = await setup();
    const user = browserlessUser();
    const multi = await MultiServerClient.connect(
      { mcpServers: { protected: { url: server.url, auth: { scopes: ["mcp:tools"] } } } },
      { auth: { onAuthorizationUrl: user.handler }, failOnError: true },
    );
    cleanup.push(() => multi.close());
    const echo = multi.tools().find((tool) => tool.name === "echo");
    expect(await echo!.invoke({ text: "hi" })).toMatchObject({ text: "hi", isError: false });
    expect(user.visits[0]!.searchParams.get("scope")).toContain("mcp:tools");
  });

  it("checks the auth settings of a config entry", async () => {
    await expect(
      MultiServerClient.connect({
        mcpServers: { s: { url: "http://127.0.0.1:1/mcp", auth: { clientID: "x" } as never } },
      }),
    ).rejects.toThrow(ConfigError);
    await expect(
      MultiServerClient.connect({
        mcpServers: { s: { url: "http://127.0.0.1:1/mcp", auth: { clientID: "x" } as never } },
      }),
    ).rejects.toThrow(/unknown key "clientID" in "auth".*clientId/s);
  });
});
