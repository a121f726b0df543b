/**
 * Credentials go only to the issuer they belong to (RFC 6749 §2.3, RFC 9700 §4.4): pre-registered
 * credentials name the authorization server that issued them (`issuer`), and the client presents
 * them to no other, whatever authorization server a server's metadata names.
 */
import { OAuthError, peerText } from "./errors.js";
import type { OAuthOptions } from "./options.js";

/** The options holding credentials bound to one authorization server, by name, as given. */
function boundCredentials(options: OAuthOptions): string[] {
  const given: string[] = [];
  if (options.clientSecret !== undefined) given.push("clientSecret");
  if (options.clientPrivateKey !== undefined) given.push("clientPrivateKey");
  if (options.grant?.type === "jwt_bearer" && typeof options.grant.assertion === "string")
    given.push("grant.assertion");
  return given;
}

/**
 * Checks `issuer` against the credentials, before anything is sent: it must be given with a
 * secret, a private key or a static assertion, and be an issuer identifier (an `https:` or `http:`
 * URL without query or fragment, RFC 8414 §2). Throws a `TypeError` naming the option.
 */
export function checkIssuerOption(options: OAuthOptions): void {
  const { issuer } = options;
  if (issuer === undefined) {
    const bound = boundCredentials(options);
    if (bound.length === 0) return;
    throw new TypeError(
      `auth.${bound[0]} needs auth.issuer: the issuer identifier of the authorization server that issued it (the "issuer" of its metadata, such as https://auth.example.com). Credentials are presented only to that authorization server, never to one a server's metadata names.`,
    );
  }
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    throw new TypeError(
      `auth.issuer must be the authorization server's issuer URL, not ${JSON.stringify(issuer)}`,
    );
  }
  if ((url.protocol !== "https:" && url.protocol !== "http:") || url.search || url.hash) {
    throw new TypeError(
      `auth.issuer ${JSON.stringify(issuer)} is no issuer identifier: an https: URL without query or fragment (RFC 8414 §2)`,
    );
  }
}

/** Whether two issuer identifiers are the same, as metadata is checked against them (URL-normalised). */
export function sameIssuer(a: string, b: string): boolean {
  try {
    return new URL(a).href === new URL(b).href;
  } catch {
    return a === b;
  }
}

/**
 * The error for a server that sends the client to authorization servers (`named`) other than the
 * credentials' `issuer`: nothing was sent to them, and nothing will be.
 */
export function otherIssuerError(server: URL, named: readonly string[], issuer: string): OAuthError {
  const list = named.map((value) => peerText(value)).join(", ");
  const which = named.length === 1 ? "authorization server" : "authorization servers";
  return new OAuthError(
    `${server.href} sends its clients to the ${which} ${list}, but this client's credentials belong to ${issuer} (auth.issuer): refusing to present them anywhere else. If the server really moved, get credentials from its new authorization server and set auth.issuer to it.`,
  );
}
