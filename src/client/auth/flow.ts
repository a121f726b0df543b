import type * as oauth from "oauth4webapi";
import { authorizationCode, prepareRedirect, type Redirect } from "./authorize.js";
import type { Discovered } from "./discovery.js";
import type { DpopKey } from "./dpop.js";
import { OAuthError } from "./errors.js";
import {
  clientCredentials,
  identityAssertion,
  JWT_BEARER,
  jwtBearer,
  refresh,
  storedTokens,
  type TokenContext,
  workloadAssertion,
} from "./grants.js";
import type { OAuthHttp } from "./http.js";
import { authMethodOf, clientAuthentication, clientIdentity } from "./identity.js";
import { sameIssuer } from "./issuer.js";
import type { OAuthGrant, OAuthOptions } from "./options.js";
import type { Secrets } from "./redact.js";
import { selectScopes } from "./scopes.js";
import type { StoredAuthorization, StoredClient, StoredTokens } from "./store.js";

/** What obtaining or refreshing tokens works from. */
interface FlowContext {
  found: Discovered;
  /** What is stored for this server (from the same authorization server), if anything. */
  state: StoredAuthorization | undefined;
  options: OAuthOptions;
  http: OAuthHttp;
  dpop: DpopKey | undefined;
  /** The client's credentials, kept out of error messages. */
  secrets: Secrets;
}

/** What an authorization asks for, beyond its context. */
interface ObtainRequest extends FlowContext {
  challengedScopes: string[] | undefined;
  previousScopes: string[] | undefined;
  /** Called once the client is identified, with what to store of it (nothing if pre-registered). */
  onClient(client: StoredClient | undefined): Promise<void>;
}

/** New tokens, the scopes asked for, and the client to keep (absent when pre-registered). */
interface Obtained {
  tokens: StoredTokens;
  scopes: string[];
  client: StoredClient | undefined;
}

/**
 * Credentials go to their issuer alone. Discovery already chose it (or refused), before anything
 * was sent: this is the last check before the client identifies itself.
 */
function checkIssuer(found: Discovered, options: OAuthOptions): void {
  const { issuer } = options;
  if (issuer === undefined || sameIssuer(found.as.issuer, issuer)) return;
  throw new OAuthError(
    `The authorization server ${found.as.issuer} is not ${issuer} (auth.issuer), which this client's credentials belong to: refusing to present them there`,
  );
}

/**
 * The grant types a client registers for: the grant it uses, and `refresh_token` with the
 * authorization code grant unless the authorization server's `grant_types_supported` leaves it out
 * (servers refuse a registration asking for a grant type they do not offer). A server that lists
 * none is asked for both, as before: by the letter of RFC 8414 its default (`authorization_code`,
 * `implicit`) leaves refresh tokens out, but servers that omit the list commonly issue them.
 */
function grantTypes(grant: OAuthGrant, as: oauth.AuthorizationServer): string[] {
  switch (grant.type) {
    case "authorization_code": {
      const supported = as.grant_types_supported;
      const refresh = !Array.isArray(supported) || supported.includes("refresh_token");
      return refresh ? ["authorization_code", "refresh_token"] : ["authorization_code"];
    }
    case "client_credentials":
      return ["client_credentials"];
    default:
      return [JWT_BEARER];
  }
}

/** Obtains tokens with the configured grant (the authorization code grant by default). */
export async function obtainTokens(request: ObtainRequest): Promise<Obtained> {
  const { found, options, http, secrets } = request;
  checkIssuer(found, options);
  const grant = options.grant ?? { type: "authorization_code" };
  const registered = grantTypes(grant, found.as);
  const scopes = selectScopes({
    challenged: request.challengedScopes,
    configured: options.scopes,
    resource: found.metadata,
    as: found.as,
    previous: request.previousScopes,
    wantsRefresh: registered.includes("refresh_token"),
  });
  let redirect: Redirect | undefined;
  try {
    if (grant.type === "authorization_code") redirect = await prepareRedirect(options);
    const identity = await clientIdentity({
      as: found.as,
      options,
      stored: request.state?.client,
      redirectUri: redirect?.redirectUri,
      grantTypes: registered,
      http,
      secrets,
    });
    const client = identity.preRegistered ? undefined : identity.client;
    await request.onClient(client);
    const context: TokenContext = {
      as: found.as,
      client: { client_id: identity.client.client_id },
      auth: await clientAuthentication(identity.client, options),
      method: authMethodOf(identity.client),
      preRegistered: identity.preRegistered,
      resource: found.resource,
      scopes,
      http,
      dpop: request.dpop,
      secrets,
    };
    let response: Awaited<ReturnType<typeof clientCredentials>>;
    switch (grant.type) {
      case "authorization_code":
        response = await authorizationCode(context, redirect!, options, found.guessed);
        break;
      case "client_credentials":
        response = await clientCredentials(context);
        break;
      case "jwt_bearer":
        response = await jwtBearer(context, await workloadAssertion(grant, found.as.issuer, secrets));
        break;
      case "enterprise":
        response = await jwtBearer(context, await identityAssertion(context, grant));
        break;
      default:
        throw new OAuthError(`Unknown grant ${JSON.stringify((grant as { type?: unknown }).type)}`);
    }
    return { tokens: storedTokens(response, scopes), scopes, client };
  } finally {
    redirect?.receiver?.close();
  }
}

/** New tokens for the stored refresh token, at the authorization server that issued it. */
export async function refreshTokens(context: FlowContext, refreshToken: string): Promise<StoredTokens> {
  const { found, state, options, http, dpop, secrets } = context;
  checkIssuer(found, options);
  const identity = await clientIdentity({
    as: found.as,
    options,
    stored: state?.client,
    redirectUri: undefined,
    grantTypes: [],
    http,
    secrets,
  });
  const tokenContext: TokenContext = {
    as: found.as,
    client: { client_id: identity.client.client_id },
    auth: await clientAuthentication(identity.client, options),
    method: authMethodOf(identity.client),
    preRegistered: identity.preRegistered,
    resource: state?.resource ?? found.resource,
    scopes: [],
    http,
    dpop,
    secrets,
  };
  const response = await refresh(tokenContext, refreshToken);
  return storedTokens(response, state?.scopes ?? [], state?.tokens);
}
