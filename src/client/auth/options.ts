import type { CryptoKey } from "oauth4webapi";
import type { TokenStore } from "./store.js";

/**
 * Where the authorization request goes, for hosts that show it themselves. `url` is the full
 * authorization URL; `redirectUri` is where the authorization server sends the user back.
 *
 * Return the URL the browser was redirected to (with `code`, `state`, maybe `iss`) if you caught it
 * yourself; return nothing to let the client wait for it on its loopback redirect receiver.
 */
export type AuthorizationUrlHandler = (
  url: URL,
  context: { redirectUri: string; signal: AbortSignal },
) => AuthorizationUrlResult | Promise<AuthorizationUrlResult>;

/** What an `AuthorizationUrlHandler` returns: the URL the user was sent back to, or nothing. */
// biome-ignore lint/suspicious/noConfusingVoidType: a handler that only opens the browser returns nothing
export type AuthorizationUrlResult = string | URL | undefined | void;

/** The authorization code grant with PKCE (the default): a user signs in at the authorization server. */
export interface AuthorizationCodeGrant {
  type: "authorization_code";
}

/** The client credentials grant: the client acts on its own behalf (`clientId` with a secret or key). */
export interface ClientCredentialsGrant {
  type: "client_credentials";
}

/**
 * The JWT bearer grant (RFC 7523) with an assertion issued to the workload by its platform
 * (workload identity federation): a Kubernetes service-account token, a cloud identity token.
 */
export interface JwtBearerGrant {
  type: "jwt_bearer";
  /**
   * The assertion, or a function that fetches a fresh one for `audience`, the issuer of the
   * authorization server it will be presented to (ask the platform for a token with that audience).
   *
   * A static assertion is bound to one authorization server (its `aud`): give it with
   * `OAuthOptions.issuer`, and it is presented to that authorization server alone.
   */
  assertion: string | ((context: { audience: string }) => string | Promise<string>);
}

/**
 * Enterprise-managed authorization: the user's identity provider exchanges their ID token for an
 * identity assertion grant (ID-JAG, RFC 8693 token exchange), which the authorization server takes
 * with the JWT bearer grant.
 */
export interface EnterpriseGrant {
  type: "enterprise";
  /** The identity provider's token endpoint. */
  tokenEndpoint: string;
  /** The identity provider's issuer, if it differs from the token endpoint's origin. */
  issuer?: string;
  /** This client's id at the identity provider. */
  clientId: string;
  /** This client's secret at the identity provider, if it has one. */
  clientSecret?: string;
  /** The user's ID token from the identity provider, or a function that returns a current one. */
  idToken: string | (() => string | Promise<string>);
}

export type OAuthGrant = AuthorizationCodeGrant | ClientCredentialsGrant | JwtBearerGrant | EnterpriseGrant;

/** A private key for `private_key_jwt` client authentication. */
export interface ClientPrivateKey {
  /** A PKCS#8 PEM string or a `CryptoKey`. */
  key: string | CryptoKey;
  /** The JWS algorithm; default `ES256` for a PEM, else the key's own. */
  alg?: string;
  /** The key id the authorization server knows the key by. */
  kid?: string;
}

/** The token endpoint authentication methods the client can use. */
export type TokenEndpointAuthMethod =
  | "none"
  | "client_secret_basic"
  | "client_secret_post"
  | "private_key_jwt";

/**
 * OAuth 2.1 for a protected MCP server (`McpClient.connect({ url, auth })`). Every field is
 * optional: on `401` the client discovers the server's authorization server (RFC 9728, RFC 8414),
 * identifies itself (pre-registered `clientId`, a client ID metadata document, or dynamic
 * registration), runs the authorization code flow with PKCE in the user's browser, and keeps the
 * tokens in `store`, refreshing them before they expire.
 */
export interface OAuthOptions {
  /** A pre-registered client id; without one the client uses `clientMetadataUrl` or registers itself. */
  clientId?: string;
  /** The pre-registered client's secret, if it is a confidential client. Needs `issuer`. */
  clientSecret?: string;
  /** The pre-registered client's key, for `private_key_jwt`. Needs `issuer`. */
  clientPrivateKey?: ClientPrivateKey;
  /**
   * The issuer identifier (RFC 8414) of the authorization server that issued the pre-registered
   * credentials, such as `https://auth.example.com`: credentials are presented to it alone
   * (RFC 6749 §2.3, RFC 9700 §4.4). A server whose metadata names other authorization servers is
   * refused with an error naming both, before anything is sent to them; one that names this one
   * among others gets this one.
   *
   * Required with `clientSecret`, `clientPrivateKey` or a static `jwt_bearer` assertion (the
   * connection fails before any request without it). Optional otherwise: a public `clientId` is no
   * secret, and a client that registers itself keeps each registration and its tokens with the
   * issuer they came from. When given, it holds in every case: the client uses no other
   * authorization server.
   */
  issuer?: string;
  /** How to authenticate at the token endpoint; default: the best the server supports for these credentials. */
  tokenEndpointAuthMethod?: TokenEndpointAuthMethod;
  /**
   * An `https:` URL where this client's metadata document is published: used as the client id with
   * authorization servers that support client ID metadata documents.
   */
  clientMetadataUrl?: string;
  /** The name shown to the user when registering dynamically; default `mcpkit`. */
  clientName?: string;
  /** More client metadata (RFC 7591) for dynamic registration. */
  clientMetadata?: Record<string, unknown>;
  /**
   * Scopes to ask for when the server's challenge names none (else the server's
   * `scopes_supported`). A `403 insufficient_scope` adds what it asks for.
   */
  scopes?: string[];
  /** Default `http://127.0.0.1:<random port>/callback`, received by the client itself. */
  redirectUri?: string;
  /** Shows the authorization URL (default: opens the system browser, `https:` or loopback `http:` only). */
  onAuthorizationUrl?: AuthorizationUrlHandler;
  /** How the client gets its tokens; default the authorization code grant. */
  grant?: OAuthGrant;
  /**
   * Sender-constrained tokens (RFC 9449 DPoP). Default `"auto"`: when the authorization server
   * advertises it and the server asks for it. `true` always, `false` never.
   */
  dpop?: boolean | "auto";
  /** Where tokens and registrations are kept; default in memory (see `FileTokenStore`). */
  store?: TokenStore;
  /**
   * How many authorizations in a row (step-ups included) may end in a token the server refuses
   * before the request fails; default 3.
   */
  maxAuthorizations?: number;
  /** How long the user has to finish signing in, in ms; default 5 minutes. */
  authorizationTimeout?: number;
  /** Milliseconds each request to the authorization server may take; default 30 s. */
  requestTimeout?: number;
  /**
   * Let the authorization server, its endpoints and metadata be on private addresses (10/8,
   * 172.16/12, 192.168/16, 100.64/10, fc00::/7, …) when the MCP server's URL is a public name:
   * for an authorization server on your internal network. Default `false`: private addresses
   * only when the MCP server's URL is itself a private or loopback address (or `localhost`).
   * Loopback, link-local (169.254/16, fe80::/10, where cloud metadata services answer) and
   * reserved addresses stay refused either way.
   */
  allowPrivateNetworks?: boolean;
  /**
   * Send the OAuth requests through this `fetch` (default: the connection's `fetch`, else the
   * client's own). The client's own resolves each host name once, refuses it if any of its
   * addresses is not allowed (see `allowPrivateNetworks`), and connects to the address it checked.
   * A `fetch` of yours (here or the connection's) is used as it is: URLs from the server are still
   * checked as written, but resolving their names and checking those addresses is up to it.
   */
  fetch?: typeof fetch;
}
