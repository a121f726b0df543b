import * as oauth from "oauth4webapi";
import { openBrowser } from "./browser.js";
import { OAuthError } from "./errors.js";
import { exchangeCode, type TokenContext } from "./grants.js";
import { asOAuthError } from "./identity.js";
import { type LoopbackReceiver, startLoopbackReceiver } from "./loopback.js";
import type { AuthorizationUrlHandler, OAuthOptions } from "./options.js";
import { isLoopbackHost } from "./url-policy.js";

/** Where the user comes back to: the redirect URI, and the receiver listening there if the client runs one. */
export interface Redirect {
  redirectUri: string;
  receiver: LoopbackReceiver | undefined;
}

/**
 * The redirect of one authorization: the configured `redirectUri` (received on this machine if it
 * is a loopback `http:` URL), else a receiver on `127.0.0.1` with a random port.
 */
export async function prepareRedirect(options: OAuthOptions): Promise<Redirect> {
  const given = options.redirectUri;
  if (given === undefined) {
    const receiver = await startLoopbackReceiver();
    return { redirectUri: receiver.redirectUri, receiver };
  }
  const url = new URL(given);
  if (url.protocol === "http:" && isLoopbackHost(url.hostname) && url.port !== "") {
    const receiver = await startLoopbackReceiver({ port: Number(url.port), path: url.pathname });
    return { redirectUri: given, receiver };
  }
  return { redirectUri: given, receiver: undefined };
}

/** The default `onAuthorizationUrl`: opens the system browser; the loopback receiver gets the answer. */
const openInBrowser: AuthorizationUrlHandler = async (url) => {
  await openBrowser(url);
};

/**
 * The authorization code grant with PKCE (S256), `state` and the resource indicator: sends the
 * user to the authorization endpoint, checks the answer (`state`, RFC 9207 `iss`) and exchanges
 * the code for tokens.
 */
export async function authorizationCode(
  context: TokenContext,
  redirect: Redirect,
  options: OAuthOptions,
  guessedMetadata: boolean,
): Promise<oauth.TokenEndpointResponse> {
  const { as, client } = context;
  if (!guessedMetadata && !as.code_challenge_methods_supported?.includes("S256")) {
    throw new OAuthError(
      `The authorization server ${as.issuer} does not support PKCE with S256: refusing to authorize`,
    );
  }
  if (as.authorization_endpoint === undefined) {
    throw new OAuthError(`The authorization server ${as.issuer} has no authorization endpoint`);
  }
  const verifier = oauth.generateRandomCodeVerifier();
  context.secrets.add(verifier);
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("client_id", client.client_id);
  url.searchParams.set("redirect_uri", redirect.redirectUri);
  url.searchParams.set("code_challenge", await oauth.calculatePKCECodeChallenge(verifier));
  url.searchParams.set("code_challenge_method", "S256");
  url.searchParams.set("state", state);
  url.searchParams.set("resource", context.resource);
  if (context.scopes.length > 0) url.searchParams.set("scope", context.scopes.join(" "));

  const callback = await awaitCallback(url, redirect, options);
  let params: URLSearchParams;
  try {
    params = oauth.validateAuthResponse(as, client, callback, state);
  } catch (error) {
    throw asOAuthError(error, `The authorization response from ${as.issuer} was refused`, context.secrets);
  }
  context.secrets.add(params.get("code") ?? undefined);
  return exchangeCode(context, params, redirect.redirectUri, verifier);
}

/** Shows the authorization URL and waits for the redirect back, within the authorization timeout. */
async function awaitCallback(url: URL, redirect: Redirect, options: OAuthOptions): Promise<URL> {
  const signal = AbortSignal.timeout(options.authorizationTimeout ?? 5 * 60_000);
  const handler = options.onAuthorizationUrl ?? openInBrowser;
  const returned = await handler(url, { redirectUri: redirect.redirectUri, signal });
  let callback: URL;
  if (returned !== undefined && returned !== null && String(returned) !== "") {
    callback = new URL(String(returned), redirect.redirectUri);
  } else if (redirect.receiver) {
    callback = await redirect.receiver.wait(signal);
  } else {
    throw new OAuthError(
      `The redirect URI ${redirect.redirectUri} is not received on this machine: onAuthorizationUrl must return the URL the user was sent back to`,
    );
  }
  const expected = new URL(redirect.redirectUri);
  if (callback.origin !== expected.origin || callback.pathname !== expected.pathname) {
    throw new OAuthError(
      `The authorization ended at ${callback.origin}${callback.pathname}, not at the redirect URI ${redirect.redirectUri}`,
    );
  }
  return callback;
}
