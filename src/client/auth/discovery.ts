import * as oauth from "oauth4webapi";
import { OAuthError, peerText } from "./errors.js";
import type { OAuthHttp } from "./http.js";
import { otherIssuerError, sameIssuer } from "./issuer.js";
import { checkCommandSafe, checkPeerUrl, type PeerPolicy } from "./url-policy.js";

/** Protected-resource metadata (RFC 9728): what the MCP server says about its own protection. */
export interface ResourceMetadata {
  resource: string;
  authorization_servers?: string[];
  scopes_supported?: string[];
  dpop_signing_alg_values_supported?: string[];
  dpop_bound_access_tokens_required?: boolean;
  [name: string]: unknown;
}

/** The authorization server the client talks to, and whether its metadata was only guessed. */
interface DiscoveredServer {
  as: oauth.AuthorizationServer;
  /** The 2025-03-26 fallback: no metadata, the default endpoints at the MCP server's root. */
  guessed: boolean;
}

/**
 * Finds the server's protected-resource metadata: at the URL its challenge named, else at the
 * path-based and then the root well-known URL. Returns `undefined` when there is none (a server
 * of the 2025-03-26 revision). A document whose `resource` is not this server is an error.
 */
async function discoverResource(
  server: URL,
  challengeUrl: string | undefined,
  http: OAuthHttp,
): Promise<ResourceMetadata | undefined> {
  const candidates: URL[] = [];
  if (challengeUrl !== undefined)
    candidates.push(checkPeerUrl(challengeUrl, http.policy, "protected-resource metadata URL"));
  const path = server.pathname.replace(/\/$/, "");
  if (path) candidates.push(new URL(`/.well-known/oauth-protected-resource${path}`, server.origin));
  candidates.push(new URL("/.well-known/oauth-protected-resource", server.origin));
  const tried = new Set<string>();
  for (const url of candidates) {
    if (tried.has(url.href)) continue;
    tried.add(url.href);
    const response = await http.getJson(url);
    if (!response) continue;
    const metadata = await jsonObject(response, `the protected-resource metadata at ${url.href}`);
    if (typeof metadata.resource !== "string") {
      throw new OAuthError(`The protected-resource metadata at ${url.href} names no resource`);
    }
    checkResource(metadata.resource, server);
    return metadata as ResourceMetadata;
  }
  return undefined;
}

/**
 * The metadata's `resource` must be this server: the same origin, and a path that is the server
 * URL's path or a parent of it (a root document describes the whole origin).
 */
function checkResource(resource: string, server: URL): void {
  let url: URL;
  try {
    url = new URL(resource);
  } catch {
    throw new OAuthError(
      `The protected-resource metadata names the resource "${peerText(resource)}", not a URL`,
    );
  }
  const path = url.pathname.replace(/\/$/, "");
  const serverPath = server.pathname.replace(/\/$/, "");
  const inside = serverPath === path || serverPath.startsWith(`${path}/`);
  if (url.origin !== server.origin || !inside || url.hash) {
    throw new OAuthError(
      `The protected-resource metadata is for ${peerText(resource)}, not for ${server.origin}${server.pathname}: refusing to authorize`,
    );
  }
}

/**
 * Fetches an authorization server's metadata, in the order the MCP specification gives: RFC 8414
 * with the issuer's path inserted, OpenID Connect discovery with it inserted, then appended. The
 * document's `issuer` must be the issuer it was looked up for.
 */
async function discoverAuthorizationServer(
  issuer: string,
  http: OAuthHttp,
): Promise<oauth.AuthorizationServer> {
  const base = checkPeerUrl(issuer, http.policy, "authorization server");
  const path = base.pathname.replace(/\/$/, "");
  const candidates = path
    ? [
        `/.well-known/oauth-authorization-server${path}`,
        `/.well-known/openid-configuration${path}`,
        `${path}/.well-known/openid-configuration`,
      ]
    : ["/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"];
  for (const candidate of candidates) {
    const url = new URL(candidate, base.origin);
    const response = await http.getJson(url);
    if (!response) continue;
    let as: oauth.AuthorizationServer;
    try {
      as = await oauth.processDiscoveryResponse(new URL(issuer), response);
    } catch (error) {
      throw new OAuthError(
        `The authorization server metadata at ${url.href} is not usable: ${messageOf(error)}`,
        {},
        causeOf(error),
      );
    }
    return checkEndpoints(as, http.policy);
  }
  throw new OAuthError(`No authorization server metadata found for ${peerText(issuer)}`);
}

/**
 * The authorization server of a server without protected-resource metadata (2025-03-26): its
 * metadata at the MCP server's root, else the default endpoints there.
 */
async function legacyAuthorizationServer(server: URL, http: OAuthHttp): Promise<DiscoveredServer> {
  const url = new URL("/.well-known/oauth-authorization-server", server.origin);
  const response = await http.getJson(url);
  if (response) {
    try {
      const as = await oauth.processDiscoveryResponse(new URL(server.origin), response);
      return { as: checkEndpoints(as, http.policy), guessed: false };
    } catch (error) {
      if (error instanceof OAuthError) throw error;
      throw new OAuthError(
        `The authorization server metadata at ${url.href} is not usable: ${messageOf(error)}`,
        {},
        causeOf(error),
      );
    }
  }
  const at = (path: string) => new URL(path, server.origin).href;
  const as: oauth.AuthorizationServer = {
    issuer: server.origin,
    authorization_endpoint: at("/authorize"),
    token_endpoint: at("/token"),
    registration_endpoint: at("/register"),
    code_challenge_methods_supported: ["S256"],
  };
  return { as, guessed: true };
}

/** Every endpoint the client may send to (or open) must pass the URL policy, before any is used. */
function checkEndpoints(as: oauth.AuthorizationServer, policy: PeerPolicy): oauth.AuthorizationServer {
  for (const name of ["authorization_endpoint", "token_endpoint", "registration_endpoint"] as const) {
    const value = as[name];
    if (value === undefined) continue;
    if (typeof value !== "string") throw new OAuthError(`The authorization server's ${name} is not a string`);
    checkPeerUrl(value, policy, `authorization server's ${name}`);
    if (name === "authorization_endpoint") checkCommandSafe(value, `authorization server's ${name}`);
  }
  return as;
}

async function jsonObject(response: Response, what: string): Promise<Record<string, unknown>> {
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    throw new OAuthError(`${what} is not JSON`);
  }
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw new OAuthError(`${what} is not a JSON object`);
  return body as Record<string, unknown>;
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * `error` as the cause of an `OAuthError`, unless it holds what a peer sent: oauth4webapi's errors
 * keep the response and its body (where a hostile server may echo the client's credentials, at any
 * length); their message, which is oauth4webapi's own, says enough.
 */
export function causeOf(error: unknown): { cause?: unknown } {
  const holdsPeerText =
    error instanceof oauth.OperationProcessingError ||
    error instanceof oauth.ResponseBodyError ||
    error instanceof oauth.AuthorizationResponseError ||
    error instanceof oauth.WWWAuthenticateChallengeError;
  return holdsPeerText ? {} : { cause: error };
}

/** What discovery found for one MCP server. */
export interface Discovered extends DiscoveredServer {
  /** The protected-resource metadata, if the server has it. */
  metadata: ResourceMetadata | undefined;
  /** The resource indicator tokens are asked for: the metadata's `resource`, else the server URL. */
  resource: string;
}

/**
 * Everything the client needs before it can authorize: the protected-resource metadata, then the
 * first authorization server it names (or, without metadata, the 2025-03-26 fallback). With
 * `issuer` (the credentials' authorization server), that one, if the server names it: else an error
 * naming both, before anything is sent to the one the server named.
 */
export async function discover(
  server: URL,
  resourceMetadataUrl: string | undefined,
  http: OAuthHttp,
  issuer?: string,
): Promise<Discovered> {
  const metadata = await discoverResource(server, resourceMetadataUrl, http);
  if (!metadata) {
    // The 2025-03-26 fallback: the MCP server's origin is the authorization server.
    if (issuer !== undefined && !sameIssuer(server.origin, issuer))
      throw otherIssuerError(server, [server.origin], issuer);
    const legacy = await legacyAuthorizationServer(server, http);
    return { ...legacy, metadata: undefined, resource: `${server.origin}${server.pathname}${server.search}` };
  }
  const named = Array.isArray(metadata.authorization_servers)
    ? metadata.authorization_servers.filter((value): value is string => typeof value === "string")
    : [];
  if (named.length === 0)
    throw new OAuthError(`The protected-resource metadata of ${server.href} names no authorization server`);
  const chosen = issuer === undefined ? named[0]! : named.find((value) => sameIssuer(value, issuer));
  if (chosen === undefined) throw otherIssuerError(server, named.slice(0, 4), issuer!);
  const as = await discoverAuthorizationServer(chosen, http);
  return { as, guessed: false, metadata, resource: metadata.resource };
}
