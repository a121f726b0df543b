import type { AuthInfo } from "../../protocol/transport.js";
import type { HttpExchange } from "../../transports/http/shared/exchange.js";
import { authInfoOf } from "./claims.js";
import { looksLikeJwt, type PresentedToken, presentedToken } from "./credentials.js";
import type { AuthorizationServerMetadata } from "./discovery.js";
import type { DpopVerifier } from "./dpop.js";
import { AuthError, AuthUnavailableError } from "./errors.js";
import { type IntrospectionOptions, Introspector } from "./introspection.js";
import { type JwtOptions, JwtVerifier } from "./jwt.js";
import { VerifiedTokens } from "./verified-tokens.js";

/** A token verified, as it was presented. */
interface KnownToken {
  readonly header: string;
  readonly auth: AuthInfo;
  readonly scheme: "Bearer" | "DPoP";
  readonly token: string;
}

/** How the tokens of a resource are checked (see `ProtectedResourceOptions`). */
interface TokenCheckOptions {
  issuer: string;
  jwt?: JwtOptions | false;
  introspection?: IntrospectionOptions;
}

/**
 * Checks the access token a request presents: a JWT with the issuer's keys, or an opaque token by
 * introspection, then its DPoP binding. A JWT verified before is known again by the header that
 * presented it, until it expires; its DPoP proof is still checked each time.
 */
export class TokenVerifier {
  private readonly jwt: JwtVerifier | undefined;
  private readonly introspector: Introspector | undefined;
  /** JWTs verified before, by the `Authorization` header that presented them. */
  private readonly verified: VerifiedTokens<KnownToken> | undefined;

  constructor(
    private readonly options: TokenCheckOptions,
    /** The canonical URI tokens must name. */
    private readonly resource: () => string,
    private readonly dpop: DpopVerifier,
    leeway: number,
    /** The issuer's metadata, where its keys and its introspection endpoint are found. */
    authorizationServer: () => Promise<AuthorizationServerMetadata>,
  ) {
    if (options.jwt !== false) {
      this.jwt = new JwtVerifier(options.issuer, resource, options.jwt ?? {}, leeway, async () => {
        const uri = (await authorizationServer()).jwks_uri;
        if (uri === undefined) throw new AuthUnavailableError(`${options.issuer} publishes no jwks_uri`);
        return uri;
      });
      const cache = options.jwt?.cache;
      if (cache !== false)
        this.verified = new VerifiedTokens(cache?.maxTokens ?? 1000, cache?.maxAge ?? 300, leeway);
    }
    if (options.introspection) {
      this.introspector = new Introspector(
        options.issuer,
        resource,
        options.introspection,
        leeway,
        async () => (await authorizationServer()).introspection_endpoint,
      );
    }
  }

  /**
   * The request's token, verified; or, when it presents none that can be checked, what is wrong
   * with what it presents. Throws an `AuthError` for a token that fails its checks.
   */
  async verify(exchange: HttpExchange): Promise<KnownToken | string> {
    const known = await this.known(exchange);
    if (known !== undefined) return known;
    const presented = presentedToken(exchange);
    if (typeof presented === "string") return presented;
    return this.verifyPresented(presented, exchange);
  }

  /** A JWT verified before, presented again in the same header; a DPoP proof is still checked each time. */
  private async known(exchange: HttpExchange): Promise<KnownToken | undefined> {
    const header = this.verified && exchange.header("authorization");
    const known = header ? this.verified!.get(tokenKey(header)) : undefined;
    // A token in the URI as well is refused by the full check.
    if (known === undefined || known.header !== header || exchange.url.includes("access_token="))
      return undefined;
    const { auth, scheme, token } = known;
    await this.checkBinding(auth, { scheme, token, proof: exchange.header("dpop") }, exchange);
    return known;
  }

  private async verifyPresented(presented: PresentedToken, exchange: HttpExchange): Promise<KnownToken> {
    const { scheme, token } = presented;
    const introspect =
      this.introspector && (!this.jwt || this.options.introspection?.always || !looksLikeJwt(token));
    let claims: Record<string, unknown>;
    if (introspect) claims = await this.introspector!.verify(token, scheme);
    else if (this.jwt && looksLikeJwt(token)) claims = await this.jwt.verify(token, scheme);
    else throw new AuthError("invalid_token", "the token is not a JWT", scheme);
    const auth = authInfoOf(claims, this.options.issuer, token, scheme);
    await this.checkBinding(auth, presented, exchange);
    const header = exchange.header("authorization")!;
    const known = { header, auth, scheme, token };
    if (!introspect) this.verified?.add(tokenKey(header), known, auth.expiresAt);
    return known;
  }

  /** A DPoP-bound token comes with the DPoP scheme and a proof; a bearer token only where allowed. */
  private async checkBinding(
    auth: AuthInfo,
    presented: PresentedToken,
    exchange: HttpExchange,
  ): Promise<void> {
    if (auth.jkt === undefined) {
      if (presented.scheme === "DPoP")
        throw new AuthError(
          "invalid_token",
          "the token is not DPoP-bound; send it as a Bearer token",
          "DPoP",
        );
      if (this.dpop.required)
        throw new AuthError("invalid_token", "this resource accepts only DPoP-bound tokens", "DPoP");
      return;
    }
    if (presented.scheme !== "DPoP")
      throw new AuthError(
        "invalid_token",
        "the token is DPoP-bound; send it with the DPoP scheme and a proof",
        "DPoP",
      );
    const url = new URL(exchange.url, this.resource());
    await this.dpop.verify(presented.proof, {
      method: exchange.method,
      url: `${url.origin}${url.pathname}`,
      token: presented.token,
      jkt: auth.jkt,
    });
  }
}

/**
 * A header's key in the cache: the tail of its signature, so a lookup hashes 64 characters, not
 * the whole token; the entry's full header is compared before it is used.
 */
const tokenKey = (header: string) => header.slice(-64);
