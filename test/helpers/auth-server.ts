// A real authorization server for the auth tests: oidc-provider on 127.0.0.1, a free port,
// issuing JWT access tokens (RFC 9068) for resources and opaque ones for those named `opaque`,
// by the client_credentials grant with a resource indicator (RFC 8707), DPoP-bound on request,
// introspection (RFC 7662) for the resource server's own client, and the authorization code
// grant with PKCE and refresh tokens for a public client, whose user (alice) logs in and consents
// at once: `authorize` plays her browser.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  type CryptoKey,
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  type JWK,
  type JWTPayload,
  jwtVerify,
  SignJWT,
} from "jose";
import { Provider } from "oidc-provider";

export const SCOPES = ["mcp:tools", "files:read", "files:write", "notes:read"];

/** The clients that get tokens for themselves (client_credentials): two callers. */
export const AGENT = { clientId: "agent", clientSecret: "agent-secret-0123456789" };
export const OTHER_AGENT = { clientId: "other-agent", clientSecret: "other-secret-0123456789" };
/** A proxy's client: its own tokens (client_credentials), and tokens exchanged for its callers' (RFC 8693). */
export const PROXY = { clientId: "mcp-proxy", clientSecret: "proxy-secret-0123456789" };
export const TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";
const ACCESS_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:access_token";

/** The resource server's own client, for introspection. */
export const RESOURCE_SERVER = { clientId: "mcp-server", clientSecret: "rs-secret-0123456789" };
/** A public client for the authorization code grant (PKCE), as an MCP app would be registered. */
export const APP = { clientId: "mcp-app", redirectUri: "http://127.0.0.1/callback" };

export interface TokenRequest {
  resource: string;
  scope?: string;
  /** Bind the token to this key (DPoP). */
  dpop?: DpopKey;
  /** Which client asks; default `AGENT`. */
  client?: { clientId: string; clientSecret: string };
}

/** A token exchange (RFC 8693): a token for `resource` standing for the subject of `subjectToken`. */
export interface ExchangeRequest {
  subjectToken: string;
  resource: string;
  scope?: string;
  client?: { clientId: string; clientSecret: string };
}

export interface DpopKey {
  privateKey: CryptoKey;
  publicJwk: JWK;
  jkt: string;
}

export interface AuthServer {
  readonly issuer: string;
  /** Resources whose tokens are opaque (introspected), not JWTs; add to it at any time. */
  readonly opaque: Set<string>;
  /** A token from the token endpoint (client_credentials grant). */
  token(request: TokenRequest): Promise<string>;
  /** A token from the token endpoint by token exchange, as `PROXY` by default. */
  exchange(request: ExchangeRequest): Promise<string>;
  /** A JWT signed with the authorization server's own key, with any claims (expired, for another resource …). */
  sign(payload: JWTPayload, header?: Record<string, unknown>): Promise<string>;
  /** Every request the server got, by path. */
  readonly requests: string[];
  /** Every token exchange it granted: whose token, for which resource. */
  readonly exchanges: { subject: string; resource: string }[];
  /** Revokes a token (RFC 7009), as its client. */
  revoke(token: string): Promise<void>;
  /**
   * Follows an authorization request as alice's browser would, logging in and consenting to
   * everything asked; the parameters of the redirect back to the app (`code`, `state`, `iss`).
   */
  authorize(url: URL | string): Promise<URLSearchParams>;
  /** How many authorization requests were made (each a user's trip to the authorization server). */
  readonly authorizations: number;
  close(): Promise<void>;
}

export async function newDpopKey(): Promise<DpopKey> {
  const { privateKey, publicKey } = await generateKeyPair("ES256");
  const publicJwk = await exportJWK(publicKey);
  return { privateKey, publicJwk, jkt: await calculateJwkThumbprint(publicJwk, "sha256") };
}

/** A DPoP proof (RFC 9449) for a request, `ath` bound to `token` when given. */
export async function dpopProof(
  key: DpopKey,
  method: string,
  url: string,
  options: { token?: string; nonce?: string; iat?: number; jti?: string } = {},
): Promise<string> {
  const claims: JWTPayload = { htm: method, htu: url, jti: options.jti ?? crypto.randomUUID() };
  if (options.token !== undefined) {
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(options.token));
    claims.ath = Buffer.from(digest).toString("base64url");
  }
  if (options.nonce !== undefined) claims.nonce = options.nonce;
  return new SignJWT(claims)
    .setProtectedHeader({ alg: "ES256", typ: "dpop+jwt", jwk: key.publicJwk })
    .setIssuedAt(options.iat ?? Math.floor(Date.now() / 1000))
    .sign(key.privateKey);
}

export async function startAuthServer(): Promise<AuthServer> {
  const opaque = new Set<string>();
  const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
  const kid = "as-key-1";
  const signingJwk = { ...(await exportJWK(privateKey)), kid, alg: "ES256", use: "sig" };
  const requests: string[] = [];
  const exchanges: { subject: string; resource: string }[] = [];
  const http: Server = createServer();
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;

  const provider = new Provider(issuer, {
    clients: [
      ...[AGENT, OTHER_AGENT].map((agent) => ({
        client_id: agent.clientId,
        client_secret: agent.clientSecret,
        grant_types: ["client_credentials"],
        redirect_uris: [],
        response_types: [],
        scope: SCOPES.join(" "),
      })),
      {
        client_id: PROXY.clientId,
        client_secret: PROXY.clientSecret,
        grant_types: ["client_credentials", TOKEN_EXCHANGE],
        redirect_uris: [],
        response_types: [],
        scope: SCOPES.join(" "),
      },
      {
        client_id: RESOURCE_SERVER.clientId,
        client_secret: RESOURCE_SERVER.clientSecret,
        grant_types: [],
        redirect_uris: [],
        response_types: [],
      },
      {
        client_id: APP.clientId,
        token_endpoint_auth_method: "none",
        grant_types: ["authorization_code", "refresh_token"],
        redirect_uris: [APP.redirectUri],
        response_types: ["code"],
        scope: `openid offline_access ${SCOPES.join(" ")}`,
      },
    ],
    jwks: { keys: [signingJwk] },
    clientDefaults: { id_token_signed_response_alg: "ES256" },
    scopes: ["openid", "offline_access", ...SCOPES],
    cookies: { keys: ["test-cookie-key-0123456789"] },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      introspection: { enabled: true },
      revocation: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: (_ctx: unknown, _client: unknown, oneOf?: string[]) => oneOf,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, resource: string) => ({
          scope: SCOPES.join(" "),
          audience: resource,
          accessTokenTTL: 600,
          accessTokenFormat: opaque.has(resource) ? "opaque" : "jwt",
          jwt: { sign: { alg: "ES256" } },
        }),
      },
    },
    findAccount: async (_ctx: unknown, sub: string) => ({ accountId: sub, claims: async () => ({ sub }) }),
    issueRefreshToken: async (_ctx: unknown, client: any) => client.grantTypeAllowed("refresh_token"),
    pkce: { required: () => true },
    ttl: { AccessToken: 600, ClientCredentials: 600, Session: 3600, Interaction: 600, Grant: 3600 },
  } as any);
  // Token exchange: the subject token must be one this server signed, and still valid; the new
  // token names the same subject, this client as the actor, and the resource asked for.
  provider.registerGrantType(
    TOKEN_EXCHANGE,
    async (ctx: any) => {
      const { subject_token, subject_token_type, resource, scope } = ctx.oidc.params;
      const refuse = (error: string, description: string) => {
        ctx.status = 400;
        ctx.body = { error, error_description: description };
      };
      if (subject_token_type !== ACCESS_TOKEN_TYPE) return refuse("invalid_request", "subject_token_type");
      let subject: JWTPayload;
      try {
        ({ payload: subject } = await jwtVerify(subject_token, publicKey, { issuer }));
      } catch (error) {
        return refuse("invalid_grant", (error as Error).message);
      }
      if (typeof resource !== "string") return refuse("invalid_target", "a resource is required");
      const now = Math.floor(Date.now() / 1000);
      const granted = String(scope ?? subject.scope ?? "")
        .split(" ")
        .filter((name) =>
          String(subject.scope ?? "")
            .split(" ")
            .includes(name),
        );
      ctx.body = {
        access_token: await new SignJWT({
          iss: issuer,
          sub: subject.sub,
          aud: resource,
          client_id: ctx.oidc.client.clientId,
          act: { sub: ctx.oidc.client.clientId },
          scope: granted.join(" "),
          iat: now,
          exp: now + 600,
          jti: crypto.randomUUID(),
        })
          .setProtectedHeader({ alg: "ES256", kid, typ: "at+jwt" })
          .sign(privateKey),
        issued_token_type: ACCESS_TOKEN_TYPE,
        token_type: "Bearer",
        expires_in: 600,
      };
      exchanges.push({ subject: String(subject.sub), resource });
    },
    ["subject_token", "subject_token_type", "resource", "scope", "requested_token_type"],
  );
  provider.on("server_error", (_ctx: unknown, error: Error) => console.error("authorization server:", error));

  const callback = provider.callback();
  http.on("request", (req, res) => {
    const path = new URL(req.url ?? "/", issuer).pathname;
    requests.push(path);
    if (path.startsWith("/interaction/")) {
      interact(provider, req, res).catch((error: Error) => {
        res.writeHead(500);
        res.end(error.message);
      });
      return;
    }
    callback(req, res);
  });

  const basic = (client: { clientId: string; clientSecret: string }) =>
    `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString("base64")}`;
  return {
    issuer,
    opaque,
    requests,
    exchanges,
    async exchange({ subjectToken, resource, scope, client = PROXY }) {
      const body = new URLSearchParams({
        grant_type: TOKEN_EXCHANGE,
        subject_token: subjectToken,
        subject_token_type: ACCESS_TOKEN_TYPE,
        resource,
      });
      if (scope !== undefined) body.set("scope", scope);
      const response = await fetch(`${issuer}/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", authorization: basic(client) },
        body,
      });
      const answer = (await response.json()) as {
        access_token?: string;
        error?: string;
        error_description?: string;
      };
      if (!answer.access_token)
        throw new Error(`token exchange: ${answer.error}: ${answer.error_description}`);
      return answer.access_token;
    },
    get authorizations() {
      return requests.filter((path) => path === "/auth").length;
    },
    async authorize(url) {
      const cookies = new Map<string, string>();
      let next = String(url);
      for (let hop = 0; hop < 10; hop++) {
        const cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join("; ");
        const response = await fetch(next, { redirect: "manual", headers: cookie ? { cookie } : {} });
        for (const set of response.headers.getSetCookie()) {
          const pair = set.split(";")[0]!;
          cookies.set(pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1));
        }
        const body = await response.text();
        const location = response.headers.get("location");
        if (!location) throw new Error(`the authorization stopped at ${next}: ${response.status} ${body}`);
        const target = new URL(location, next);
        if (target.href.startsWith(APP.redirectUri)) return target.searchParams;
        next = target.href;
      }
      throw new Error("the authorization redirected too often");
    },
    async revoke(token) {
      const response = await fetch(`${issuer}/token/revocation`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", authorization: basic(AGENT) },
        body: new URLSearchParams({ token }),
      });
      if (response.status !== 200) throw new Error(`revocation: ${response.status} ${await response.text()}`);
    },
    async token({ resource, scope, dpop, client = AGENT }) {
      const body = new URLSearchParams({ grant_type: "client_credentials", resource });
      if (scope !== undefined) body.set("scope", scope);
      const headers: Record<string, string> = {
        "content-type": "application/x-www-form-urlencoded",
        authorization: basic(client),
      };
      if (dpop) headers.dpop = await dpopProof(dpop, "POST", `${issuer}/token`);
      const response = await fetch(`${issuer}/token`, { method: "POST", headers, body });
      const answer = (await response.json()) as {
        access_token?: string;
        error?: string;
        error_description?: string;
      };
      if (!answer.access_token)
        throw new Error(`token endpoint: ${answer.error}: ${answer.error_description}`);
      return answer.access_token;
    },
    sign(payload, header = {}) {
      return new SignJWT(payload)
        .setProtectedHeader({ alg: "ES256", kid, typ: "at+jwt", ...header })
        .sign(privateKey);
    },
    async close() {
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
    },
  };
}

/** alice logs in, then grants whatever the client asked for. */
async function interact(provider: Provider, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const details = await provider.interactionDetails(req, res);
  if (details.prompt.name === "login") {
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId: "alice" } },
      { mergeWithLastSubmission: false },
    );
    return;
  }
  const grant = details.grantId
    ? await provider.Grant.find(details.grantId)
    : new provider.Grant({ accountId: details.session.accountId, clientId: details.params.client_id });
  const missing = details.prompt.details as {
    missingOIDCScope?: string[];
    missingResourceScopes?: Record<string, string[]>;
  };
  if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(" "));
  for (const [resource, scopes] of Object.entries(missing.missingResourceScopes ?? {})) {
    grant.addResourceScope(resource, scopes.join(" "));
  }
  const grantId = await grant.save();
  await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
}
