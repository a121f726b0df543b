import { importPKCS8 } from "jose";
import * as oauth from "oauth4webapi";
import { causeOf, messageOf } from "./discovery.js";
import { answeredError, OAuthError } from "./errors.js";
import type { OAuthHttp } from "./http.js";
import type { OAuthOptions, TokenEndpointAuthMethod } from "./options.js";
import type { Secrets } from "./redact.js";
import type { StoredClient } from "./store.js";
import { isLoopbackHost } from "./url-policy.js";

/** The client as one authorization server knows it, and how it authenticates there. */
interface ClientIdentity {
  client: StoredClient;
  /** Whether it came from the options (pre-registered): then it is not stored. */
  preRegistered: boolean;
}

/** What choosing an identity needs to know. */
interface IdentityContext {
  as: oauth.AuthorizationServer;
  options: OAuthOptions;
  /** The client registered at this authorization server before, if any. */
  stored: StoredClient | undefined;
  /** Where the authorization server sends the user back (for registration). */
  redirectUri: string | undefined;
  /** The grant types the client will use there. */
  grantTypes: string[];
  http: OAuthHttp;
  /** The client's credentials, kept out of error messages. */
  secrets: Secrets;
}

/**
 * The client's identity at an authorization server, in the order of preference the MCP
 * specification gives: pre-registered credentials, a registration made before, a client ID
 * metadata document when the server supports them, dynamic registration (RFC 7591).
 */
export async function clientIdentity(context: IdentityContext): Promise<ClientIdentity> {
  const { as, options, stored } = context;
  if (options.clientId !== undefined) {
    const method = options.tokenEndpointAuthMethod ?? preregisteredMethod(as, options);
    const client: StoredClient = { client_id: options.clientId, token_endpoint_auth_method: method };
    if (options.clientSecret !== undefined) client.client_secret = options.clientSecret;
    return { client, preRegistered: true };
  }
  if (stored && !secretExpired(stored)) return { client: stored, preRegistered: false };
  if (options.clientMetadataUrl !== undefined && as.client_id_metadata_document_supported === true) {
    return {
      client: { client_id: options.clientMetadataUrl, token_endpoint_auth_method: "none" },
      preRegistered: false,
    };
  }
  if (as.registration_endpoint !== undefined)
    return { client: await register(context), preRegistered: false };
  throw new OAuthError(
    `The authorization server ${as.issuer} offers no dynamic client registration; ${PRE_REGISTER}` +
      (as.client_id_metadata_document_supported === true ? ", or a clientMetadataUrl" : ""),
    { needsPreRegisteredClient: true },
  );
}

/** What to do when the client cannot register itself. */
const PRE_REGISTER =
  "register a client there beforehand and pass its clientId and issuer (with its clientSecret or clientPrivateKey if it is a confidential client)";

/** Dynamic client registration as a native (loopback or custom-scheme redirect) or web client. */
async function register(context: IdentityContext): Promise<StoredClient> {
  const { as, options, redirectUri, grantTypes, http } = context;
  const method = options.tokenEndpointAuthMethod ?? registrationMethod(as);
  const metadata: Partial<oauth.OmitSymbolProperties<oauth.Client>> = {
    client_name: options.clientName ?? "mcpkit",
    grant_types: grantTypes,
    token_endpoint_auth_method: method,
    ...(grantTypes.includes("authorization_code") && { response_types: ["code"] }),
    ...(redirectUri !== undefined && {
      redirect_uris: [redirectUri],
      application_type: applicationType(redirectUri),
    }),
    ...(options.clientMetadata as Partial<oauth.OmitSymbolProperties<oauth.Client>> | undefined),
  };
  let response: Response;
  try {
    response = await oauth.dynamicClientRegistrationRequest(
      as,
      metadata,
      http.options(as.registration_endpoint),
    );
  } catch (error) {
    throw asOAuthError(
      error,
      `Registering the client at ${as.registration_endpoint} failed`,
      context.secrets,
    );
  }
  const client = await registrationResponse(
    response,
    `Registering the client at ${as.registration_endpoint}`,
    context.secrets,
  );
  // A server that issued no secret registered a public client, whatever was asked for.
  client.token_endpoint_auth_method ??= client.client_secret === undefined ? "none" : method;
  return client;
}

/**
 * Reads a registration response (RFC 7591 §3.2). Leniently: servers that answer 200 instead of 201,
 * or leave out `client_secret_expires_at`, are common.
 */
async function registrationResponse(
  response: Response,
  what: string,
  secrets: Secrets,
): Promise<StoredClient> {
  let body: Record<string, unknown> = {};
  try {
    const parsed: unknown = await response.json();
    if (typeof parsed === "object" && parsed !== null) body = parsed as Record<string, unknown>;
  } catch {
    // judged by the status below
  }
  if (response.status !== 201 && response.status !== 200) {
    const hide = (text: unknown) => (typeof text === "string" ? secrets.redact(text) : text);
    const answer = { error: hide(body.error), description: hide(body.error_description) };
    const failed = `${what} failed: HTTP ${response.status}`;
    // A server error may pass; a refusal (RFC 7591 §3.2.2) will not.
    if (response.status < 400 || response.status >= 500) throw answeredError(failed, answer);
    // 401 and 403: registration needs an initial access token (RFC 7591 §3), as at Okta or Keycloak.
    const why =
      response.status === 401 || response.status === 403
        ? "the authorization server lets only clients with an initial access token register"
        : "the authorization server refused the registration";
    throw answeredError(failed, answer, { next: `${why}: ${PRE_REGISTER}`, needsPreRegisteredClient: true });
  }
  if (typeof body.client_id !== "string" || body.client_id === "")
    throw new OAuthError(`${what}: the answer has no client_id`);
  const client: StoredClient = { client_id: body.client_id };
  if (typeof body.client_secret === "string") client.client_secret = body.client_secret;
  if (typeof body.token_endpoint_auth_method === "string")
    client.token_endpoint_auth_method = body.token_endpoint_auth_method;
  const expires = body.client_secret_expires_at;
  if (typeof expires === "number" && expires > 0) client.client_secret_expires_at = expires * 1000;
  return client;
}

/** `native` for a loopback or custom-scheme redirect (an app on the user's machine), else `web`. */
function applicationType(redirectUri: string): "native" | "web" {
  const url = new URL(redirectUri);
  if (url.protocol !== "http:" && url.protocol !== "https:") return "native";
  return url.protocol === "http:" && isLoopbackHost(url.hostname) ? "native" : "web";
}

function supportedMethods(as: oauth.AuthorizationServer): string[] {
  return as.token_endpoint_auth_methods_supported ?? ["client_secret_basic"];
}

/** A registering client asks to be public when it may, else for a secret sent the way the server prefers. */
function registrationMethod(as: oauth.AuthorizationServer): TokenEndpointAuthMethod {
  const supported = supportedMethods(as);
  for (const method of ["none", "client_secret_basic", "client_secret_post"] as const) {
    if (supported.includes(method)) return method;
  }
  return "client_secret_basic";
}

function preregisteredMethod(as: oauth.AuthorizationServer, options: OAuthOptions): TokenEndpointAuthMethod {
  const supported = supportedMethods(as);
  if (options.clientPrivateKey) return "private_key_jwt";
  if (options.clientSecret === undefined) return "none";
  if (supported.includes("client_secret_basic")) return "client_secret_basic";
  if (supported.includes("client_secret_post")) return "client_secret_post";
  return "client_secret_basic";
}

function secretExpired(client: StoredClient): boolean {
  const expires = client.client_secret_expires_at;
  return expires !== undefined && expires > 0 && expires <= Date.now();
}

/** The token endpoint authentication method of `client`: its own, else what its credentials allow. */
export function authMethodOf(client: StoredClient): string {
  return (
    client.token_endpoint_auth_method ?? (client.client_secret === undefined ? "none" : "client_secret_basic")
  );
}

/** How the client authenticates at the token endpoint, as oauth4webapi applies it. */
export async function clientAuthentication(
  client: StoredClient,
  options: OAuthOptions,
): Promise<oauth.ClientAuth> {
  const method = authMethodOf(client);
  switch (method) {
    case "none":
      return oauth.None();
    case "client_secret_basic":
    case "client_secret_post": {
      if (client.client_secret === undefined) {
        throw new OAuthError(`The client ${client.client_id} has no secret for ${method}`);
      }
      return method === "client_secret_basic"
        ? secretBasic(client.client_secret)
        : oauth.ClientSecretPost(client.client_secret);
    }
    case "private_key_jwt": {
      const given = options.clientPrivateKey;
      if (!given)
        throw new OAuthError(`The client ${client.client_id} has no private key for private_key_jwt`);
      const key =
        typeof given.key === "string" ? await importPKCS8(given.key, given.alg ?? "ES256") : given.key;
      return oauth.PrivateKeyJwt(given.kid === undefined ? key : { key, kid: given.kid });
    }
    default:
      throw new OAuthError(`The token endpoint authentication method ${method} is not supported`);
  }
}

/**
 * `client_secret_basic` (RFC 6749 §2.3.1): the id and secret form-encoded, then Base64. Unlike
 * oauth4webapi's, it leaves `-`, `.`, `_` and `*` as they are, as the form encoding does and as
 * servers that skip the decoding step expect.
 */
function secretBasic(secret: string): oauth.ClientAuth {
  return (_as, client, _body, headers) => {
    const encode = (value: string) => new URLSearchParams({ v: value }).toString().slice(2);
    const credentials = Buffer.from(`${encode(client.client_id)}:${encode(secret)}`).toString("base64");
    headers.set("authorization", `Basic ${credentials}`);
  };
}

/**
 * Any failure of an oauth4webapi call as an `OAuthError` that keeps the server's error code. What
 * the server said is capped and inert, and `secrets` (the credentials the client sent) are redacted
 * from it before it is cut, so no part of one survives.
 */
export function asOAuthError(error: unknown, what: string, secrets?: Secrets): OAuthError {
  if (error instanceof OAuthError) return error;
  const hide = (text: unknown) => (typeof text === "string" && secrets ? secrets.redact(text) : text);
  if (error instanceof oauth.ResponseBodyError || error instanceof oauth.AuthorizationResponseError) {
    return answeredError(what, { error: hide(error.error), description: hide(error.error_description) });
  }
  return new OAuthError(`${what}: ${hide(messageOf(error))}`, {}, causeOf(error));
}
