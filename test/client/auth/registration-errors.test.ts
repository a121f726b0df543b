// What the client registers for (the authorization server's grant_types_supported), and what it
// says when the authorization server refuses its registration or its client credentials: real
// oidc-provider servers, and recording ones where a refusal is scripted.
import { exportJWK, exportPKCS8, generateKeyPair } from "jose";
import { afterEach, describe, expect, it } from "vitest";
import type { OAuthErrorData, OAuthOptions } from "../../../src/client/auth/index.js";
import { McpClient } from "../../../src/client/index.js";
import {
  browserlessUser,
  startAuthorizationServer,
  startProtectedServer,
} from "../../helpers/oauth-servers.js";
import { protectedMcpServer, recordingAuthorizationServer } from "../../helpers/recording-oauth.js";

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

async function setup(options: Parameters<typeof startAuthorizationServer>[0] = {}) {
  const as = await startAuthorizationServer(options);
  cleanup.push(() => as.close());
  const server = await startProtectedServer({ as });
  cleanup.push(() => server.close());
  return { as, server };
}

/** The error `McpClient.connect` fails with. */
async function connectError(url: string, auth: OAuthOptions) {
  const error = await McpClient.connect({ url, auth }).then(
    async (client) => {
      await client.close();
      throw new Error("connected");
    },
    (failure: unknown) => failure as { message: string; data: OAuthErrorData },
  );
  expect(error.data?.authorizationFailed, error.message).toBe(true);
  return error;
}

/** A `fetch` that keeps the JSON bodies of the registration requests it sends. */
function registrationRecorder() {
  const registrations: Record<string, unknown>[] = [];
  const recorder: typeof fetch = async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (new URL(url).pathname === "/reg" && typeof init?.body === "string")
      registrations.push(JSON.parse(init.body) as Record<string, unknown>);
    return fetch(input, init);
  };
  return { registrations, fetch: recorder };
}

describe("dynamic registration follows the authorization server's grant types", () => {
  it("registers without refresh_token where grant_types_supported leaves it out, and signs in", async () => {
    const { as, server } = await setup({ refreshTokens: false });
    const metadata = (await (await fetch(`${as.issuer}/.well-known/openid-configuration`)).json()) as {
      grant_types_supported: string[];
    };
    expect(metadata.grant_types_supported).not.toContain("refresh_token");
    const recorder = registrationRecorder();
    const user = browserlessUser();
    const client = await McpClient.connect({
      url: server.url,
      auth: { onAuthorizationUrl: user.handler, fetch: recorder.fetch },
    });
    cleanup.push(() => client.close());
    expect((await client.callTool("echo", { text: "hi" })).text()).toBe("hi");
    expect(recorder.registrations).toHaveLength(1);
    expect(recorder.registrations[0]!.grant_types).toEqual(["authorization_code"]);
    expect(as.grants).toEqual(["authorization_code"]);
  });

  it("still asks for refresh_token where the authorization server offers it", async () => {
    const { server } = await setup();
    const recorder = registrationRecorder();
    const user = browserlessUser();
    const client = await McpClient.connect({
      url: server.url,
      auth: { onAuthorizationUrl: user.handler, fetch: recorder.fetch },
    });
    cleanup.push(() => client.close());
    expect(recorder.registrations[0]!.grant_types).toEqual(["authorization_code", "refresh_token"]);
  });
});

describe("a refused registration says what to do next", () => {
  const refusals = [
    {
      name: "an initial access token required (401)",
      status: 401,
      body: { error: "invalid_token", error_description: "an initial access token is required" },
      why: "lets only clients with an initial access token register",
    },
    {
      name: "client metadata refused (400 invalid_client_metadata)",
      status: 400,
      body: { error: "invalid_client_metadata", error_description: "grant_types not allowed" },
      why: "refused the registration",
    },
  ];
  for (const refusal of refusals) {
    it(refusal.name, async () => {
      const as = await recordingAuthorizationServer({
        name: "strict",
        register: () => ({ status: refusal.status, body: refusal.body }),
      });
      cleanup.push(() => as.close());
      const server = await protectedMcpServer([as.issuer]);
      cleanup.push(() => server.close());
      const error = await connectError(server.url, {
        onAuthorizationUrl: () => {
          throw new Error("no sign-in expected");
        },
      });
      expect(error.message).toContain(`HTTP ${refusal.status}: ${refusal.body.error}`);
      expect(error.message).toContain(refusal.body.error_description);
      expect(error.message).toContain(refusal.why);
      expect(error.message).toContain("register a client there beforehand and pass its clientId and issuer");
      expect(error.data).toMatchObject({
        oauthError: refusal.body.error,
        description: refusal.body.error_description,
        needsPreRegisteredClient: true,
      });
    });
  }
});

describe("a refused client secret or key says invalid_client and whose", () => {
  const WRONG = "wrong-secret-0123456789";

  for (const method of ["client_secret_basic", "client_secret_post"] as const) {
    it(`${method}: names the client and what to check, never the secret`, async () => {
      const { as, server } = await setup({
        clients: [
          {
            client_id: "worker",
            client_secret: "right-secret-0123456789",
            redirect_uris: [],
            response_types: [],
            grant_types: ["client_credentials"],
            token_endpoint_auth_method: method,
          },
        ],
      });
      const error = await connectError(server.url, {
        clientId: "worker",
        clientSecret: WRONG,
        issuer: as.issuer,
        tokenEndpointAuthMethod: method,
        grant: { type: "client_credentials" },
      });
      expect(error.message).toContain(
        `the authorization server refused the credentials of client id worker (${method}) at its token endpoint: invalid_client`,
      );
      expect(error.message).toContain("check clientSecret");
      expect(error.message).not.toContain("WWW-Authenticate");
      expect(error.message).not.toContain(WRONG);
      expect(JSON.stringify(error.data)).not.toContain(WRONG);
      expect(error.data.oauthError).toBe("invalid_client");
      expect(as.grants).toEqual([]);
    });
  }

  it("private_key_jwt: a key other than the registered one", async () => {
    const registered = await generateKeyPair("ES256", { extractable: true });
    const other = await generateKeyPair("ES256", { extractable: true });
    const jwk = { ...(await exportJWK(registered.publicKey)), kid: "worker-key", alg: "ES256", use: "sig" };
    const { as, server } = await setup({
      clients: [
        {
          client_id: "signer",
          redirect_uris: [],
          response_types: [],
          grant_types: ["client_credentials"],
          token_endpoint_auth_method: "private_key_jwt",
          token_endpoint_auth_signing_alg: "ES256",
          jwks: { keys: [jwk] },
        },
      ],
    });
    const error = await connectError(server.url, {
      clientId: "signer",
      clientPrivateKey: { key: await exportPKCS8(other.privateKey), kid: "worker-key", alg: "ES256" },
      issuer: as.issuer,
      grant: { type: "client_credentials" },
    });
    expect(error.message).toContain(
      "the authorization server refused the credentials of client id signer (private_key_jwt) at its token endpoint: invalid_client",
    );
    expect(error.message).toContain("check clientPrivateKey");
    expect(error.data.oauthError).toBe("invalid_client");
  });

  it("a bare 401 from the token endpoint is a refusal of the credentials too", async () => {
    const as = await recordingAuthorizationServer({
      name: "terse",
      token: () => ({ status: 401, body: "no" }),
    });
    cleanup.push(() => as.close());
    const server = await protectedMcpServer([as.issuer]);
    cleanup.push(() => server.close());
    const error = await connectError(server.url, {
      clientId: "worker",
      clientSecret: WRONG,
      issuer: as.issuer,
      grant: { type: "client_credentials" },
    });
    expect(error.message).toContain(
      "refused the credentials of client id worker (client_secret_basic) at its token endpoint (HTTP 401)",
    );
    expect(error.message).not.toContain(WRONG);
  });
});
