import * as oauth from "oauth4webapi";
import type { DpopKey } from "./dpop.js";
import { OAuthError } from "./errors.js";
import type { OAuthHttp } from "./http.js";
import type { EnterpriseGrant, JwtBearerGrant } from "./options.js";
import type { Secrets } from "./redact.js";
import type { StoredTokens } from "./store.js";
import { credentialsCheck, tokenError } from "./token-error.js";

export const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";
const TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";
const ID_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:id_token";
const ID_JAG_TYPE = "urn:ietf:params:oauth:token-type:id-jag";

/** What every token request needs. */
export interface TokenContext {
  as: oauth.AuthorizationServer;
  client: oauth.Client;
  auth: oauth.ClientAuth;
  /** The token endpoint authentication method `auth` applies, named when the server refuses it. */
  method: string;
  /** Whether the client's credentials came from the options (else from a registration). */
  preRegistered: boolean;
  /** The resource indicator (RFC 8707) the tokens are for. */
  resource: string;
  scopes: string[];
  http: OAuthHttp;
  dpop: DpopKey | undefined;
  /** The client's credentials, kept out of error messages; what a grant sends is added to them. */
  secrets: Secrets;
}

/** The HTTP settings and DPoP handle of one token request. */
function requestOptions(context: TokenContext) {
  return {
    ...context.http.options(context.as.token_endpoint),
    ...(context.dpop && { DPoP: context.dpop.handle }),
  };
}

/** The same, with the resource indicator for the grants whose parameters oauth4webapi sets itself. */
function withResource(context: TokenContext) {
  return { ...requestOptions(context), additionalParameters: { resource: context.resource } };
}

/** A grant's own parameters: `resource`, and `scope` when there are scopes to ask for. */
function grantParameters(context: TokenContext, own: Record<string, string> = {}): Record<string, string> {
  const parameters: Record<string, string> = { ...own, resource: context.resource };
  if (context.scopes.length > 0) parameters.scope = context.scopes.join(" ");
  return parameters;
}

/**
 * Runs a token request, once more if the authorization server demands a DPoP nonce (RFC 9449 §8;
 * the handle keeps the nonce from the refusal).
 */
async function withNonce<T>(context: TokenContext, what: string, request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (error) {
    if (!oauth.isDPoPNonceError(error)) throw await refusal(context, error, what);
    try {
      return await request();
    } catch (again) {
      throw await refusal(context, again, what);
    }
  }
}

/** A failed token request of this client as an `OAuthError`. */
function refusal(context: TokenContext, error: unknown, what: string): Promise<OAuthError> {
  const { client, method, preRegistered, secrets } = context;
  return tokenError(error, what, secrets, {
    clientId: client.client_id,
    method,
    check: credentialsCheck(method, preRegistered),
  });
}

/** The token response as the store keeps it. */
export function storedTokens(
  response: oauth.TokenEndpointResponse,
  asked: string[],
  previous?: StoredTokens,
): StoredTokens {
  const tokens: StoredTokens = {
    access_token: response.access_token,
    token_type: response.token_type.toLowerCase(),
  };
  const refresh = response.refresh_token ?? previous?.refresh_token;
  if (refresh !== undefined) tokens.refresh_token = refresh;
  if (typeof response.expires_in === "number") tokens.expires_at = Date.now() + response.expires_in * 1000;
  const scope = response.scope ?? (asked.length > 0 ? asked.join(" ") : undefined);
  if (scope !== undefined) tokens.scope = scope;
  return tokens;
}

/** Exchanges an authorization code (with its PKCE verifier) for tokens. */
export function exchangeCode(
  context: TokenContext,
  callback: URLSearchParams,
  redirectUri: string,
  verifier: string,
): Promise<oauth.TokenEndpointResponse> {
  const { as, client, auth } = context;
  return withNonce(context, `The token request to ${as.token_endpoint} failed`, async () => {
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      auth,
      callback,
      redirectUri,
      verifier,
      withResource(context),
    );
    return oauth.processAuthorizationCodeResponse(as, client, response);
  });
}

/** Trades a refresh token for new tokens. */
export function refresh(context: TokenContext, refreshToken: string): Promise<oauth.TokenEndpointResponse> {
  const { as, client, auth } = context;
  return withNonce(context, `Refreshing the token at ${as.token_endpoint} failed`, async () => {
    const response = await oauth.refreshTokenGrantRequest(
      as,
      client,
      auth,
      refreshToken,
      withResource(context),
    );
    return oauth.processRefreshTokenResponse(as, client, response);
  });
}

/** The client credentials grant. */
export function clientCredentials(context: TokenContext): Promise<oauth.TokenEndpointResponse> {
  const { as, client, auth } = context;
  const parameters = grantParameters(context);
  return withNonce(context, `The client credentials grant at ${as.token_endpoint} failed`, async () => {
    const response = await oauth.clientCredentialsGrantRequest(
      as,
      client,
      auth,
      parameters,
      requestOptions(context),
    );
    return oauth.processClientCredentialsResponse(as, client, response);
  });
}

/** The JWT bearer grant (RFC 7523) with `assertion`. */
export function jwtBearer(context: TokenContext, assertion: string): Promise<oauth.TokenEndpointResponse> {
  const { as, client, auth } = context;
  const parameters = grantParameters(context, { assertion });
  return withNonce(context, `The JWT bearer grant at ${as.token_endpoint} failed`, async () => {
    const response = await oauth.genericTokenEndpointRequest(
      as,
      client,
      auth,
      JWT_BEARER,
      parameters,
      requestOptions(context),
    );
    return oauth.processGenericTokenEndpointResponse(as, client, response);
  });
}

/**
 * The assertion of a workload identity grant, fetched fresh for `audience` (the authorization
 * server's issuer) if it is a function. Remembered as a secret: it is kept out of error messages.
 */
export async function workloadAssertion(
  grant: JwtBearerGrant,
  audience: string,
  secrets: Secrets,
): Promise<string> {
  const assertion =
    typeof grant.assertion === "function" ? await grant.assertion({ audience }) : grant.assertion;
  if (typeof assertion !== "string" || assertion === "")
    throw new OAuthError("The JWT bearer grant has no assertion");
  secrets.add(assertion);
  return assertion;
}

/**
 * Enterprise-managed authorization, first step: the identity provider exchanges the user's ID
 * token for an identity assertion grant (ID-JAG) for this authorization server and resource.
 */
export async function identityAssertion(context: TokenContext, grant: EnterpriseGrant): Promise<string> {
  const { http } = context;
  const endpoint = new URL(grant.tokenEndpoint);
  const idp: oauth.AuthorizationServer = {
    issuer: grant.issuer ?? endpoint.origin,
    token_endpoint: endpoint.href,
  };
  const idpClient: oauth.Client = { client_id: grant.clientId };
  const idpAuth =
    grant.clientSecret === undefined ? oauth.None() : oauth.ClientSecretPost(grant.clientSecret);
  const idToken = typeof grant.idToken === "function" ? await grant.idToken() : grant.idToken;
  context.secrets.add(idToken);
  const parameters = grantParameters(context, {
    requested_token_type: ID_JAG_TYPE,
    audience: context.as.issuer,
    subject_token: idToken,
    subject_token_type: ID_TOKEN_TYPE,
  });
  try {
    const response = await oauth.genericTokenEndpointRequest(
      idp,
      idpClient,
      idpAuth,
      TOKEN_EXCHANGE,
      parameters,
      http.options(endpoint),
    );
    const result = await oauth.processGenericTokenEndpointResponse(idp, idpClient, response, {
      // An ID-JAG is no access token: its token_type is "N_A" (RFC 8693 §2.2.1).
      recognizedTokenTypes: { n_a: () => {} },
    });
    if (result.issued_token_type !== undefined && result.issued_token_type !== ID_JAG_TYPE) {
      throw new OAuthError(
        `The identity provider issued a ${String(result.issued_token_type)}, not an ID-JAG`,
      );
    }
    context.secrets.add(result.access_token);
    return result.access_token;
  } catch (error) {
    throw await tokenError(error, `The token exchange at ${endpoint.href} failed`, context.secrets, {
      clientId: grant.clientId,
      method: grant.clientSecret === undefined ? "none" : "client_secret_post",
      check: "check the enterprise grant's clientId and clientSecret, which are the identity provider's",
    });
  }
}
