import { timeProblem } from "./claims.js";
import { AuthError, AuthUnavailableError } from "./errors.js";
import { fetchJson } from "./fetch-json.js";
import { audienceMatches, trustedUrl } from "./urls.js";

/** How opaque access tokens are checked: token introspection (RFC 7662), once per request. */
export interface IntrospectionOptions {
  /** The introspection endpoint; by default its authorization server metadata's `introspection_endpoint`. */
  endpoint?: string;
  /** This resource server's own client credentials at the authorization server. */
  clientId: string;
  clientSecret: string;
  /** How it sends them: HTTP Basic (`client_secret_basic`, default) or in the form (`client_secret_post`). */
  authMethod?: "client_secret_basic" | "client_secret_post";
  /** Introspect JWT access tokens too, rather than checking them locally (sees revocation at once). */
  always?: boolean;
  /** How long to wait for the endpoint, in ms. Default 5 s. */
  timeout?: number;
}

/**
 * Asks the authorization server about a token (RFC 7662) and accepts only what it says is
 * `active`, meant for this resource (`aud`, RFC 8707), from this issuer, and within `exp`/`nbf`.
 */
export class Introspector {
  constructor(
    private readonly issuer: string,
    private readonly resource: () => string,
    private readonly options: IntrospectionOptions,
    private readonly leeway: number,
    private readonly discovered: () => Promise<string | undefined>,
  ) {
    if (options.endpoint !== undefined) trustedUrl(options.endpoint, "The introspection endpoint");
    if (!options.clientId || !options.clientSecret)
      throw new TypeError("Token introspection needs the resource server's clientId and clientSecret");
  }

  async verify(token: string, scheme: "Bearer" | "DPoP"): Promise<Record<string, unknown>> {
    const endpoint = this.options.endpoint ?? (await this.discovered());
    if (endpoint === undefined)
      throw new AuthUnavailableError(`${this.issuer} publishes no introspection_endpoint`);
    const form = new URLSearchParams({ token, token_type_hint: "access_token" });
    const headers: Record<string, string> = {
      accept: "application/json",
      "content-type": "application/x-www-form-urlencoded",
    };
    const { clientId, clientSecret } = this.options;
    if (this.options.authMethod === "client_secret_post") {
      form.set("client_id", clientId);
      form.set("client_secret", clientSecret);
    } else {
      // RFC 6749 §2.3.1: each is form-encoded before they are joined.
      const pair = `${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`;
      headers.authorization = `Basic ${Buffer.from(pair).toString("base64")}`;
    }
    const { status, body } = await fetchJson(
      endpoint,
      { method: "POST", headers, body: form.toString() },
      this.options.timeout ?? 5000,
    );
    if (status !== 200 || body === undefined) {
      throw new AuthUnavailableError(`the introspection endpoint answered ${status}`);
    }
    return this.check(body, scheme);
  }

  private check(claims: Record<string, unknown>, scheme: "Bearer" | "DPoP"): Record<string, unknown> {
    const refuse = (why: string) => new AuthError("invalid_token", why, scheme);
    if (claims.active !== true) throw refuse("the token is not active");
    if (claims.iss !== undefined && claims.iss !== this.issuer)
      throw refuse("the token was not issued by this resource's authorization server (iss)");
    const type = claims.token_type;
    if (type !== undefined && !/^(bearer|dpop)$/i.test(String(type)))
      throw refuse("the token is not an access token");
    if (!audienceMatches(claims.aud, this.resource()))
      throw refuse(`the token is not meant for ${this.resource()} (aud)`);
    const time = timeProblem(claims, this.leeway);
    if (time) throw refuse(time);
    return claims;
  }
}
