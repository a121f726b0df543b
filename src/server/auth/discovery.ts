import { AuthUnavailableError } from "./errors.js";
import { fetchJson } from "./fetch-json.js";
import { trustedUrl } from "./urls.js";

/** What the resource server reads of its authorization server's metadata (RFC 8414). */
export interface AuthorizationServerMetadata {
  readonly issuer: string;
  readonly jwks_uri?: string;
  readonly introspection_endpoint?: string;
  readonly [key: string]: unknown;
}

/**
 * The metadata of `issuer`: RFC 8414's well-known URL (path inserted), then OpenID Connect
 * Discovery's (path inserted, then appended). It must name the same issuer (RFC 8414 §3.3), and
 * the endpoints it names must be trusted URLs too.
 */
export async function discoverMetadata(
  issuer: string,
  timeout: number,
): Promise<AuthorizationServerMetadata> {
  const url = trustedUrl(issuer, "The issuer");
  const path = url.pathname === "/" ? "" : url.pathname.replace(/\/$/, "");
  const candidates = [
    `${url.origin}/.well-known/oauth-authorization-server${path}`,
    `${url.origin}/.well-known/openid-configuration${path}`,
    ...(path === "" ? [] : [`${url.origin}${path}/.well-known/openid-configuration`]),
  ];
  for (const candidate of candidates) {
    const { status, body } = await fetchJson(candidate, { headers: { accept: "application/json" } }, timeout);
    if (status !== 200 || body === undefined) continue;
    if (body.issuer !== issuer) {
      throw new AuthUnavailableError(
        `${candidate} names issuer ${JSON.stringify(body.issuer)}, not ${JSON.stringify(issuer)}`,
      );
    }
    for (const key of ["jwks_uri", "introspection_endpoint"] as const) {
      if (body[key] === undefined) continue;
      try {
        trustedUrl(String(body[key]), `The issuer's ${key}`);
      } catch (error) {
        throw new AuthUnavailableError((error as Error).message);
      }
    }
    return body as AuthorizationServerMetadata;
  }
  throw new AuthUnavailableError(
    `No authorization server metadata for ${issuer} (tried ${candidates.join(", ")})`,
  );
}
