/**
 * A URL the resource server fetches from or trusts (an issuer, its JWKS, its introspection
 * endpoint): `https:`, or `http:` on a loopback address for development and tests.
 */
export function trustedUrl(value: string | URL, what: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError(`${what} must be an absolute URL, not ${JSON.stringify(String(value))}`);
  }
  if (url.protocol === "https:") return url;
  if (url.protocol === "http:" && isLoopbackName(url.hostname)) return url;
  throw new TypeError(`${what} must be an https: URL (http: only on a loopback address), not ${url.href}`);
}

/** A loopback address or `localhost`; not merely a name that starts with `127.` (`127.example.com`). */
function isLoopbackName(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/**
 * The canonical URI of a protected resource (RFC 8707, as the MCP spec has it): absolute, no
 * fragment, scheme and host in lower case, and no trailing slash after a bare origin.
 */
export function canonicalResource(value: string | URL): string {
  const url = trustedUrl(value, "The protected resource");
  if (url.hash !== "") throw new TypeError(`The protected resource must have no fragment: ${url.href}`);
  return url.pathname === "/" && url.search === "" ? url.origin : url.href;
}

/** Whether a token's audience (`aud`: a string or a list) names this resource. */
export function audienceMatches(audience: unknown, resource: string): boolean {
  const names = Array.isArray(audience) ? audience : [audience];
  return names.some((name) => typeof name === "string" && sameResource(name, resource));
}

function sameResource(name: string, resource: string): boolean {
  if (name === resource) return true;
  try {
    return canonicalResource(name) === resource;
  } catch {
    return false;
  }
}

/** Where RFC 9728 puts a resource's metadata: the well-known path inserted before the resource's path. */
export function metadataUrl(resource: string): string {
  const url = new URL(resource);
  const path = url.pathname === "/" ? "" : url.pathname.replace(/\/$/, "");
  return `${url.origin}${WELL_KNOWN}${path}`;
}

export const WELL_KNOWN = "/.well-known/oauth-protected-resource";
