/**
 * The official SDK v2 client (`@modelcontextprotocol/client` 2.4.0) with its OAuth support against
 * a protected mcpkit server, in both eras (a 2025-11-25 session and stateless 2026-07-28), with a
 * real authorization server (oidc-provider): discovery from the 401 (protected-resource metadata,
 * then the authorization server's), the authorization code grant with PKCE and a resource
 * indicator, calls with the token, a refresh when the server refuses the access token, and scope
 * step-up from a 403 `insufficient_scope`. The machine-to-machine variant uses the SDK's
 * `ClientCredentialsProvider`.
 */
import {
  Client,
  ClientCredentialsProvider,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
  StreamableHTTPClientTransport,
  UnauthorizedError,
} from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { McpServer } from "../../src/server/index.js";
import type { HttpServerHandle } from "../../src/transports/http/server/index.js";
import { AGENT, APP, type AuthServer, startAuthServer } from "../helpers/auth-server.js";

vi.setConfig({ testTimeout: 60_000 });

const ERAS = [
  { era: "2025-11-25", options: {} },
  { era: "2026-07-28", options: { versionNegotiation: { mode: { pin: "2026-07-28" } } } },
] as const;

let as: AuthServer;
let handle: HttpServerHandle;
const calls: string[] = [];

beforeAll(async () => {
  as = await startAuthServer();
  const server = new McpServer({ name: "notes", version: "1" })
    .tool("whoami", {}, (_args, ctx) => {
      calls.push("whoami");
      return `${ctx.auth?.subject} (${ctx.auth?.scopes.join(" ")})`;
    })
    .tool("write_note", { scopes: ["files:write"] }, (_args, ctx) => {
      calls.push("write_note");
      return `written for ${ctx.auth?.subject}`;
    });
  handle = await server.serveHttp({ auth: { issuer: as.issuer, scopes: ["mcp:tools"] } });
});

afterAll(async () => {
  await handle?.close();
  await as?.close();
});

/**
 * An MCP app registered at the authorization server as a public client; its user's browser is
 * the test authorization server's `authorize`, and the redirect it ends with is kept for `finishAuth`.
 */
class AppProvider implements OAuthClientProvider {
  saved: StoredOAuthTokens | undefined;
  callback: URLSearchParams | undefined;
  private verifier = "";
  private discovered: OAuthDiscoveryState | undefined;

  get redirectUrl(): string {
    return APP.redirectUri;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "notes app",
      redirect_uris: [APP.redirectUri],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }

  clientInformation(): StoredOAuthClientInformation {
    return { client_id: APP.clientId };
  }

  tokens(): StoredOAuthTokens | undefined {
    return this.saved;
  }

  saveTokens(tokens: StoredOAuthTokens): void {
    this.saved = tokens;
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    this.callback = await as.authorize(url);
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    return this.verifier;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovered = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.discovered;
  }
}

/** Connects, going through the authorization when the server asks for it. */
async function connect(
  provider: AppProvider,
  options: object,
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  for (let attempt = 0; ; attempt++) {
    const transport = new StreamableHTTPClientTransport(new URL(handle.url), { authProvider: provider });
    const client = new Client({ name: "notes-app", version: "1" }, options);
    try {
      await client.connect(transport);
      return { client, transport };
    } catch (error) {
      if (!(error instanceof UnauthorizedError) || attempt > 0) throw error;
      await transport.finishAuth(provider.callback!);
    }
  }
}

const textOf = (result: unknown) => (result as { content: { text: string }[] }).content[0]!.text;

describe("the official SDK client with its OAuth provider", () => {
  for (const { era, options } of ERAS) {
    it(`discovers, authorizes, calls, refreshes and steps up (${era})`, async () => {
      calls.length = 0;
      const provider = new AppProvider();
      const authorizationsBefore = as.authorizations;
      const { client, transport } = await connect(provider, options);
      try {
        expect(transport.protocolVersion).toBe(era);
        // Discovery from the 401 led to the authorization server, through the resource's metadata.
        expect(as.authorizations).toBe(authorizationsBefore + 1);
        expect(provider.saved?.refresh_token).toBeTypeOf("string");
        expect(provider.saved?.scope?.split(" ")).toContain("mcp:tools");
        expect(textOf(await client.callTool({ name: "whoami", arguments: {} }))).toMatch(
          /^alice \(.*mcp:tools.*\)$/,
        );

        // The server refuses the access token (as it would an expired one): the client refreshes,
        // with one request to the token endpoint and no new authorization.
        provider.saved = { ...provider.saved!, access_token: "not-a-valid-token" };
        const tokenRequests = as.requests.filter((path) => path === "/token").length;
        expect(textOf(await client.callTool({ name: "whoami", arguments: {} }))).toMatch(/^alice /);
        expect(provider.saved.access_token).not.toBe("not-a-valid-token");
        expect(as.requests.filter((path) => path === "/token").length).toBe(tokenRequests + 1);
        expect(as.authorizations).toBe(authorizationsBefore + 1);

        // A tool that needs more: 403 insufficient_scope, a new authorization with the union of scopes.
        const stepUp = await client
          .callTool({ name: "write_note", arguments: {} })
          .catch((error: unknown) => error);
        expect(stepUp).toBeInstanceOf(UnauthorizedError);
        expect(as.authorizations).toBe(authorizationsBefore + 2);
        expect(calls).toEqual(["whoami", "whoami"]);
        await transport.finishAuth(provider.callback!);
        expect(provider.saved.scope?.split(" ")).toEqual(
          expect.arrayContaining(["mcp:tools", "files:write"]),
        );
        expect(textOf(await client.callTool({ name: "write_note", arguments: {} }))).toBe(
          "written for alice",
        );
        expect(calls).toEqual(["whoami", "whoami", "write_note"]);
      } finally {
        await client.close();
      }
    });
  }

  for (const { era, options } of ERAS) {
    it(`gets its own token with client_credentials, and steps up without a user (${era})`, async () => {
      const provider = new ClientCredentialsProvider({
        clientId: AGENT.clientId,
        clientSecret: AGENT.clientSecret,
        scope: "mcp:tools",
        expectedIssuer: as.issuer,
      });
      const transport = new StreamableHTTPClientTransport(new URL(handle.url), { authProvider: provider });
      const client = new Client({ name: "agent", version: "1" }, options);
      await client.connect(transport);
      try {
        expect(transport.protocolVersion).toBe(era);
        expect(textOf(await client.callTool({ name: "whoami", arguments: {} }))).toBe("agent (mcp:tools)");
        expect(textOf(await client.callTool({ name: "write_note", arguments: {} }))).toBe(
          "written for agent",
        );
      } finally {
        await client.close();
      }
    });
  }
});
