// A real authorization server (oidc-provider) and a protected MCP server for the OAuth client tests:
// the authorization server approves every sign-in as the user "alice"; the MCP server checks each
// request's token by introspection (and its DPoP proof) and forwards what passes to an mcpkit server.
import { createHash } from "node:crypto";
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import {
  calculateJwkThumbprint,
  decodeProtectedHeader,
  exportJWK,
  generateKeyPair,
  importJWK,
  jwtVerify,
} from "jose";
import type { AuthorizationUrlHandler } from "../../src/client/auth/index.js";
import { McpServer } from "../../src/server/index.js";

/** The resource server's own credentials at the authorization server, for introspection. */
const RS_CLIENT = { client_id: "mcp-resource-server", client_secret: "resource-server-secret" };

/** What the introspection endpoint says about a token. */
export interface Introspection {
  active: boolean;
  aud?: string | string[];
  scope?: string;
  exp?: number;
  client_id?: string;
  cnf?: { jkt?: string };
}

/** One request a test server received. */
export interface SeenRequest {
  method: string;
  path: string;
  authorization: string | undefined;
}

export interface TestAuthorizationServer {
  issuer: string;
  /** Every request, in order. */
  seen: SeenRequest[];
  /** The grant type of every token the token endpoint issued, in order. */
  grants: string[];
  /** Set the resource (the protected MCP server's URL) tokens may be issued for. */
  setResource(resource: string): void;
  introspect(token: string): Promise<Introspection>;
  /** Revokes an access or refresh token (as the resource server, which may revoke any). */
  revoke(token: string, hint?: "access_token" | "refresh_token"): Promise<void>;
  close(): Promise<void>;
}

export interface AuthorizationServerOptions {
  /** Seconds an access token lives; default 3600. */
  accessTokenTtl?: number;
  /** Pre-registered clients (oidc-provider client metadata). */
  clients?: Record<string, unknown>[];
  /**
   * `false`: no refresh tokens, and none in `grant_types_supported` (oidc-provider then refuses a
   * registration that asks for the `refresh_token` grant). Default `true`.
   */
  refreshTokens?: boolean;
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  return (server.address() as AddressInfo).port;
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/** oidc-provider's notices about development settings say nothing about the tests: keep them out of the output. */
function quietOidcProvider(): void {
  for (const level of ["info", "warn"] as const) {
    const original = console[level];
    if ((original as { quiet?: boolean }).quiet) continue;
    const quiet = (...args: unknown[]) => {
      if (typeof args[0] === "string" && args[0].includes("oidc-provider ")) return;
      original(...args);
    };
    console[level] = Object.assign(quiet, { quiet: true });
  }
}

/** Starts oidc-provider on 127.0.0.1 with registration, resource indicators, DPoP, introspection and revocation. */
export async function startAuthorizationServer(
  options: AuthorizationServerOptions = {},
): Promise<TestAuthorizationServer> {
  // oidc-provider ships no type declarations: a computed specifier keeps the import untyped.
  quietOidcProvider();
  const moduleName = "oidc-provider";
  const { default: Provider, errors } = (await import(moduleName)) as {
    default: new (issuer: string, config: object) => any;
    errors: { InvalidTarget: new () => Error };
  };
  const http = createServer();
  const port = await listen(http);
  const issuer = `http://127.0.0.1:${port}`;
  let resource: string | undefined;
  const { privateKey } = await generateKeyPair("ES256", { extractable: true });
  const signing = { ...(await exportJWK(privateKey)), alg: "ES256", use: "sig", kid: "test-key" };
  const provider = new Provider(issuer, {
    clients: [
      { ...RS_CLIENT, redirect_uris: [], response_types: [], grant_types: [] },
      ...(options.clients ?? []),
    ],
    jwks: { keys: [signing] },
    clientDefaults: { id_token_signed_response_alg: "ES256" },
    cookies: { keys: ["a cookie key for the tests"] },
    findAccount: (_ctx: unknown, accountId: string) => ({ accountId, claims: () => ({ sub: accountId }) }),
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    // oidc-provider lists refresh_token among its grant types for a custom issueRefreshToken or an
    // offline_access scope: with neither, it lists and issues none.
    ...(options.refreshTokens === false
      ? { scopes: ["openid"] }
      : {
          issueRefreshToken: (_ctx: unknown, client: { grantTypeAllowed(type: string): boolean }) =>
            client.grantTypeAllowed("refresh_token"),
        }),
    ttl: { AccessToken: options.accessTokenTtl ?? 3600, ClientCredentials: options.accessTokenTtl ?? 3600 },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      introspection: { enabled: true },
      revocation: { enabled: true, allowedPolicy: () => true },
      clientCredentials: { enabled: true },
      dPoP: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: (_ctx: unknown, _client: unknown, oneOf?: string) => oneOf ?? resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, indicator: string) => {
          if (indicator !== resource) throw new errors.InvalidTarget();
          return {
            scope: "mcp:tools mcp:admin",
            audience: indicator,
            accessTokenFormat: "opaque",
            accessTokenTTL: options.accessTokenTtl ?? 3600,
          };
        },
      },
    },
  });
  const seen: SeenRequest[] = [];
  const grants: string[] = [];
  provider.on("grant.success", (ctx: { oidc: { params: { grant_type?: string } } }) => {
    grants.push(ctx.oidc.params.grant_type ?? "?");
  });
  const callback = provider.callback();
  http.on("request", async (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? "/", issuer).pathname;
    seen.push({ method: req.method ?? "GET", path, authorization: req.headers.authorization });
    if (path.startsWith("/interaction/")) {
      approve(provider, req, res).catch((error: unknown) => {
        res.writeHead(500).end(String(error));
      });
      return;
    }
    callback(req, res);
  });

  const endpoint = (path: string) => new URL(path, issuer).href;
  const rsAuth = `Basic ${Buffer.from(`${RS_CLIENT.client_id}:${RS_CLIENT.client_secret}`).toString("base64")}`;
  const form = async (path: string, body: Record<string, string>) =>
    fetch(endpoint(path), {
      method: "POST",
      headers: { authorization: rsAuth, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(body),
    });
  return {
    issuer,
    seen,
    grants,
    setResource: (value) => {
      resource = value;
    },
    introspect: async (token) =>
      (await (await form("/token/introspection", { token })).json()) as Introspection,
    revoke: async (token, hint) => {
      const response = await form("/token/revocation", { token, ...(hint && { token_type_hint: hint }) });
      if (!response.ok) throw new Error(`revocation failed: ${response.status} ${await response.text()}`);
    },
    close: () => close(http),
  };
}

/** The user: signs in as "alice" and grants every scope asked for. */
async function approve(provider: any, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const details = await provider.interactionDetails(req, res);
  const { prompt, params, session, grantId } = details;
  let result: object;
  if (prompt.name === "login") {
    result = { login: { accountId: "alice" } };
  } else {
    const grant = grantId
      ? await provider.Grant.find(grantId)
      : new provider.Grant({ accountId: session.accountId, clientId: params.client_id });
    const missing = prompt.details as {
      missingOIDCScope?: string[];
      missingOIDCClaims?: string[];
      missingResourceScopes?: Record<string, string[]>;
    };
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(" "));
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
    for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) {
      grant.addResourceScope(indicator, scopes.join(" "));
    }
    result = { consent: { grantId: await grant.save() } };
  }
  await provider.interactionFinished(req, res, result, { mergeWithLastSubmission: true });
}

/**
 * A browser that needs no one: follows the authorization URL through the authorization server's
 * redirects (keeping its cookies) until it points at the redirect URI, and returns that URL; with
 * `visitRedirect`, it goes there too (to the client's loopback receiver) and returns nothing.
 */
export function browserlessUser(options: { visitRedirect?: boolean } = {}): {
  handler: AuthorizationUrlHandler;
  visits: URL[];
  redirects: string[];
} {
  const visits: URL[] = [];
  const redirects: string[] = [];
  const handler: AuthorizationUrlHandler = async (url, { redirectUri }) => {
    visits.push(url);
    redirects.push(redirectUri);
    const cookies = new Map<string, string>();
    let next = url.href;
    for (let hop = 0; hop < 12; hop++) {
      if (next.startsWith(redirectUri)) {
        if (!options.visitRedirect) return next;
        // As a browser would, on its own: the client's receiver keeps the redirect until the client waits.
        void fetch(next).then((r) => r.text());
        return undefined;
      }
      const cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join("; ");
      const response = await fetch(next, { redirect: "manual", headers: cookie ? { cookie } : {} });
      for (const header of response.headers.getSetCookie()) {
        const [pair = ""] = header.split(";");
        const at = pair.indexOf("=");
        if (at > 0) cookies.set(pair.slice(0, at), pair.slice(at + 1));
      }
      const location = response.headers.get("location");
      const text = await response.text();
      if (!location)
        throw new Error(
          `the authorization stopped at ${next}: HTTP ${response.status} ${text.slice(0, 200)}`,
        );
      next = new URL(location, next).href;
    }
    throw new Error("too many redirects");
  };
  return { handler, visits, redirects };
}

export interface ProtectedServer {
  /** The MCP endpoint. */
  url: string;
  /** Every request the MCP server received (the well-known documents included). */
  seen: SeenRequest[];
  /** Treats `token` as invalid from now on, as a server does with a token it no longer trusts. */
  distrust(token: string): void;
  close(): Promise<void>;
}

export interface ProtectedServerOptions {
  as: TestAuthorizationServer;
  /** The scope every request needs; default `mcp:tools`. */
  scope?: string;
  /** Ask for DPoP-bound tokens (the `DPoP` challenge scheme) and check every proof. */
  dpop?: boolean;
  /** More scope a tool's calls need, by tool name: a token without it gets `403 insufficient_scope`. */
  toolScopes?: Record<string, string>;
}

/** An mcpkit server (tools `echo` and `admin`) that accepts only requests with a token the authorization server issued for it. */
export async function startProtectedServer(options: ProtectedServerOptions): Promise<ProtectedServer> {
  const { z } = await import("zod");
  const mcp = new McpServer({ name: "protected", version: "1.0.0" })
    .tool(
      "echo",
      { description: "Echoes its text", input: z.object({ text: z.string() }) },
      ({ text }) => text,
    )
    .tool("admin", { description: "Does something only admins may" }, () => "done");
  const backend = await mcp.serveHttp();
  const front = createServer();
  const port = await listen(front);
  const origin = `http://127.0.0.1:${port}`;
  const resource = `${origin}/mcp`;
  const metadataUrl = `${origin}/.well-known/oauth-protected-resource/mcp`;
  const scope = options.scope ?? "mcp:tools";
  const scheme = options.dpop ? "DPoP" : "Bearer";
  options.as.setResource(resource);
  const seen: SeenRequest[] = [];
  const jtis = new Set<string>();
  const distrusted = new Set<string>();

  const refuse = (res: ServerResponse, status: number, error?: string, wanted = scope) => {
    const params = [
      `resource_metadata="${metadataUrl}"`,
      `scope="${wanted}"`,
      ...(error ? [`error="${error}"`] : []),
    ];
    res.writeHead(status, {
      "www-authenticate": `${scheme} ${params.join(", ")}`,
      "content-type": "application/json",
    });
    res.end(JSON.stringify({ error: error ?? "unauthorized" }));
  };

  /** The token's problem, or `undefined` when it may pass. */
  const check = async (req: IncomingMessage, needed: string[]): Promise<string | undefined> => {
    const [given, token] = (req.headers.authorization ?? "").split(" ");
    if (!token || given?.toLowerCase() !== scheme.toLowerCase()) return "no token";
    if (distrusted.has(token)) return "invalid_token";
    const info = await options.as.introspect(token);
    const audiences = Array.isArray(info.aud) ? info.aud : [info.aud];
    if (!info.active || !audiences.includes(resource)) return "invalid_token";
    const granted = (info.scope ?? "").split(" ");
    if (!needed.every((s) => granted.includes(s))) return "insufficient_scope";
    if (!options.dpop) return info.cnf?.jkt === undefined ? undefined : "invalid_token";
    const proof = req.headers.dpop;
    if (typeof proof !== "string" || info.cnf?.jkt === undefined) return "invalid_token";
    const header = decodeProtectedHeader(proof);
    const jwk = header.jwk as Parameters<typeof importJWK>[0] | undefined;
    if (header.typ !== "dpop+jwt" || !jwk) return "invalid_dpop_proof";
    const { payload } = await jwtVerify(proof, await importJWK(jwk, header.alg), { typ: "dpop+jwt" });
    const ath = createHash("sha256").update(token).digest("base64url");
    const fresh = typeof payload.jti === "string" && !jtis.has(payload.jti);
    if (typeof payload.jti === "string") jtis.add(payload.jti);
    const bound = (await calculateJwkThumbprint(jwk)) === info.cnf.jkt;
    if (payload.htm !== req.method || payload.htu !== resource || payload.ath !== ath || !fresh || !bound) {
      return "invalid_dpop_proof";
    }
    return undefined;
  };

  front.on("request", async (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? "/", origin).pathname;
    seen.push({ method: req.method ?? "GET", path, authorization: req.headers.authorization });
    if (path === "/.well-known/oauth-protected-resource/mcp") {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({ resource, authorization_servers: [options.as.issuer], scopes_supported: [scope] }),
      );
      return;
    }
    if (path !== "/mcp") {
      res.writeHead(404).end();
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    let toolScope: string | undefined;
    try {
      const message = JSON.parse(body.toString("utf8")) as { method?: string; params?: { name?: string } };
      if (message.method === "tools/call") toolScope = options.toolScopes?.[message.params?.name ?? ""];
    } catch {
      // not a JSON body (a GET): no tool to check
    }
    try {
      const problem = await check(req, toolScope ? [scope, toolScope] : [scope]);
      // Like the servers of the referee, the challenge names only the scope that is missing.
      if (problem === "insufficient_scope") return refuse(res, 403, problem, toolScope);
      if (problem !== undefined) return refuse(res, 401, problem === "no token" ? undefined : problem);
    } catch {
      return refuse(res, 401, "invalid_token");
    }
    const { authorization: _a, dpop: _d, host: _h, ...headers } = req.headers;
    const forward = httpRequest(
      backend.url,
      { method: req.method, headers: { ...headers, host: `127.0.0.1:${backend.port}` } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on("error", () => res.destroy());
    forward.end(body);
  });

  return {
    url: resource,
    seen,
    distrust: (token) => distrusted.add(token),
    close: async () => {
      await close(front);
      await backend.close();
    },
  };
}
