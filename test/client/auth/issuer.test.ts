// Credentials go only to the issuer they belong to (RFC 6749 §2.3, RFC 9700 §4.4): a server whose
// metadata names an attacker's authorization server must not get the client to present its secret,
// key or assertion there, nor anything the client holds from another authorization server.
import { generateKeyPair } from "jose";
import { afterEach, describe, expect, it } from "vitest";
import {
  isOAuthError,
  MemoryTokenStore,
  type OAuthOptions,
  OAuthSession,
} from "../../../src/client/auth/index.js";
import { McpClient } from "../../../src/client/index.js";
import {
  protectedMcpServer,
  type RecordingAuthorizationServer,
  recordingAuthorizationServer,
} from "../../helpers/recording-oauth.js";

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

async function authorizationServer(name: string, options: { expiresIn?: number } = {}) {
  const as = await recordingAuthorizationServer({ name, ...options });
  cleanup.push(() => as.close());
  return as;
}

async function mcpServer(issuers: string[], options: { metadata?: boolean } = {}) {
  const server = await protectedMcpServer(issuers, options);
  cleanup.push(() => server.close());
  return server;
}

/** Connecting fails; the error it fails with. */
async function connectError(url: string, auth: OAuthOptions): Promise<Error> {
  return McpClient.connect({ url, auth, handshakeTimeout: 20_000 }).then(
    async (client) => {
      await client.close();
      throw new Error("connected");
    },
    (error: Error) => error,
  );
}

const SECRET = "the-pre-registered-secret-0123456789";
const ASSERTION = "a-static-workload-assertion-for-the-honest-issuer";

/** Every form of pre-registered credential, for the honest authorization server `issuer`. */
async function credentialKinds(issuer: string): Promise<[string, OAuthOptions][]> {
  const { privateKey } = await generateKeyPair("ES256");
  return [
    [
      "a client secret (client credentials)",
      { clientId: "app", clientSecret: SECRET, issuer, grant: { type: "client_credentials" } },
    ],
    [
      "a client secret (authorization code)",
      {
        clientId: "app",
        clientSecret: SECRET,
        issuer,
        onAuthorizationUrl: () => {
          throw new Error("no user should be sent anywhere");
        },
      },
    ],
    [
      "a private key",
      {
        clientId: "app",
        clientPrivateKey: { key: privateKey, kid: "k1" },
        issuer,
        grant: { type: "client_credentials" },
      },
    ],
    ["a static assertion", { clientId: "app", issuer, grant: { type: "jwt_bearer", assertion: ASSERTION } }],
  ];
}

/** Whether any request `as` recorded carries one of `values`, in a header or the body. */
function carries(as: RecordingAuthorizationServer, values: string[]): boolean {
  return as.seen.some((r) =>
    values.some((value) => r.body.includes(value) || (r.authorization ?? "").includes(value)),
  );
}

describe("credentials and their issuer", () => {
  it("presents each kind of pre-registered credential to no authorization server but its issuer", async () => {
    const honest = await authorizationServer("honest");
    const attacker = await authorizationServer("attacker");
    const server = await mcpServer([attacker.issuer]);
    for (const [kind, auth] of await credentialKinds(honest.issuer)) {
      const error = await connectError(server.url, auth);
      expect(isOAuthError(error), `${kind}: ${error.message}`).toBe(true);
      expect(error.message, kind).toContain(attacker.issuer);
      expect(error.message, kind).toContain(honest.issuer);
      expect(error.message, kind).toContain("auth.issuer");
      // Not a token request, not a registration: not even its metadata was asked for.
      expect(attacker.seen, kind).toEqual([]);
    }
    expect(honest.seen).toEqual([]);
  });

  it("refuses a server without metadata whose origin is not the credentials' issuer", async () => {
    const honest = await authorizationServer("honest");
    const server = await mcpServer([], { metadata: false });
    const error = await connectError(server.url, {
      clientId: "app",
      clientSecret: SECRET,
      issuer: honest.issuer,
      grant: { type: "client_credentials" },
    });
    expect(isOAuthError(error)).toBe(true);
    expect(error.message).toContain(server.origin);
    expect(error.message).toContain(honest.issuer);
    const asked = server.seen.map((r) => r.path);
    expect(asked).not.toContain("/token");
    expect(asked).not.toContain("/register");
    expect(asked).not.toContain("/.well-known/oauth-authorization-server");
    expect(server.seen.some((r) => r.authorization !== undefined)).toBe(false);
  });

  it("uses the credentials' issuer when the server names it among others", async () => {
    const honest = await authorizationServer("honest");
    const attacker = await authorizationServer("attacker");
    const server = await mcpServer([attacker.issuer, honest.issuer]);
    const session = new OAuthSession(server.url, {
      clientId: "app",
      clientSecret: SECRET,
      issuer: honest.issuer,
      grant: { type: "client_credentials" },
    });
    await session.authorize();
    expect((await session.tokens())?.access_token).toMatch(/^honest-access-token/);
    expect(attacker.seen).toEqual([]);
    const basic = `Basic ${Buffer.from(`app:${SECRET}`).toString("base64")}`;
    expect(honest.credentialed().map((r) => r.authorization)).toEqual([basic]);
  });

  it.each([
    ["a client secret", { clientId: "app", clientSecret: SECRET }, "clientSecret"],
    [
      "a private key",
      { clientId: "app", clientPrivateKey: { key: "-----BEGIN PRIVATE KEY-----" } },
      "clientPrivateKey",
    ],
    [
      "a static assertion",
      { clientId: "app", grant: { type: "jwt_bearer", assertion: ASSERTION } },
      "grant.assertion",
    ],
  ] as [string, OAuthOptions, string][])(
    "needs the issuer of %s, and says so before sending anything",
    async (_kind, auth, option) => {
      const attacker = await authorizationServer("attacker");
      const server = await mcpServer([attacker.issuer]);
      const error = await connectError(server.url, auth);
      expect(error).toBeInstanceOf(TypeError);
      expect(error.message).toContain(`auth.${option} needs auth.issuer`);
      expect(server.seen).toEqual([]);
      expect(attacker.seen).toEqual([]);
    },
  );

  it("refuses an issuer that is no issuer identifier", () => {
    for (const issuer of [
      "auth.example.com",
      "https://auth.example.com/?tenant=1",
      "ftp://auth.example.com",
    ]) {
      expect(() => new OAuthSession("http://127.0.0.1:1/mcp", { issuer })).toThrow(TypeError);
    }
  });

  it("needs no issuer for a public client id or an assertion function, which gets its audience", async () => {
    const as = await authorizationServer("as");
    const server = await mcpServer([as.issuer]);
    const audiences: string[] = [];
    const session = new OAuthSession(server.url, {
      clientId: "public-app",
      grant: {
        type: "jwt_bearer",
        assertion: ({ audience }) => {
          audiences.push(audience);
          return `assertion-for-${audience}`;
        },
      },
    });
    await session.authorize();
    expect(audiences).toEqual([as.issuer]);
    const [token] = as.credentialed();
    expect(new URLSearchParams(token!.body).get("assertion")).toBe(`assertion-for-${as.issuer}`);
  });

  it("holds a public client id to its issuer when one is given", async () => {
    const honest = await authorizationServer("honest");
    const attacker = await authorizationServer("attacker");
    const server = await mcpServer([attacker.issuer]);
    const error = await connectError(server.url, {
      clientId: "public-app",
      issuer: honest.issuer,
      grant: { type: "jwt_bearer", assertion: () => "an-assertion-made-for-the-audience" },
    });
    expect(isOAuthError(error)).toBe(true);
    expect(error.message).toContain(attacker.issuer);
    expect(attacker.seen).toEqual([]);
  });
});

describe("what is kept, by issuer", () => {
  it("never uses a registration or tokens from one authorization server at another", async () => {
    // Tokens that live 10 s are inside the client's refresh margin: every use refreshes them.
    const first = await authorizationServer("first", { expiresIn: 10 });
    const second = await authorizationServer("second", { expiresIn: 10 });
    const server = await mcpServer([first.issuer]);
    const store = new MemoryTokenStore();
    const options: OAuthOptions = { store, grant: { type: "client_credentials" } };
    const session = new OAuthSession(server.url, options);
    await session.authorize();
    const kept = store.get(new URL(server.url).href)!;
    expect(kept.issuer).toBe(first.issuer);
    expect(kept.client?.client_id).toBe("first-client");
    const held = [
      "first-client",
      "first-registered-secret",
      kept.tokens!.access_token,
      kept.tokens!.refresh_token!,
    ];

    // The server moves to another authorization server: a later process refreshes, then signs in.
    server.pointAt([second.issuer]);
    const later = new OAuthSession(server.url, options);
    const headers = await later.headers({ method: "POST", url: new URL(server.url) });
    expect(headers).toEqual({});
    expect(carries(second, held)).toBe(false);
    await later.authorize();
    expect(second.credentialed().map((r) => r.path)).toEqual(["/register", "/token"]);
    expect(carries(second, held)).toBe(false);
    const now = store.get(new URL(server.url).href)!;
    expect(now.issuer).toBe(second.issuer);
    expect(now.client?.client_id).toBe("second-client");

    // And back: what the second one issued does not go to the first.
    const heldNow = [now.client!.client_secret!, now.tokens!.access_token, now.tokens!.refresh_token!];
    const before = first.seen.length;
    server.pointAt([first.issuer]);
    await new OAuthSession(server.url, options).authorize();
    expect(first.seen.slice(before).map((r) => r.path)).toContain("/register");
    expect(carries(first, heldNow)).toBe(false);
  });
});
