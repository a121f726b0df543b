import type { JSONRPCMessage } from "../../jsonrpc/messages.js";
import type { AuthInfo } from "../../protocol/transport.js";
import type { HttpAuthHooks, HttpRefusal } from "../../transports/http/shared/authenticate.js";
import type { HttpExchange } from "../../transports/http/shared/exchange.js";
import { type ChallengeContext, refusal, unauthorized } from "./challenge.js";
import { authInfoOf } from "./claims.js";
import { looksLikeJwt, type PresentedToken, presentedToken } from "./credentials.js";
import { type AuthorizationServerMetadata, discoverMetadata } from "./discovery.js";
import { type DpopOptions, DpopVerifier } from "./dpop.js";
import { AuthError, AuthUnavailableError } from "./errors.js";
import { type IntrospectionOptions, Introspector } from "./introspection.js";
import { type JwtOptions, JwtVerifier } from "./jwt.js";
import { MetadataRoutes, type ProtectedResourceMetadata } from "./metadata.js";
import { canonicalResource, metadataUrl, trustedUrl } from "./urls.js";
import { VerifiedTokens } from "./verified-tokens.js";

/** A token verified before, as it was presented. */
interface KnownToken {
  readonly header: string;
  readonly auth: AuthInfo;
  readonly scheme: "Bearer" | "DPoP";
  readonly token: string;
}

/** How a server checks the access tokens it is called with (the MCP spec's authorization, RFC 9728). */
export interface ProtectedResourceOptions {
  /** The authorization server that issues this resource's tokens: its issuer identifier. */
  issuer: string;
  /**
   * This server's canonical URI (RFC 8707): the audience (`aud`) its tokens must name, and the
   * `resource` of its metadata. `serveHttp` defaults it to its endpoint's URL.
   */
  resource?: string;
  /** Scopes every token must grant. */
  scopes?: string[];
  /** `scopes_supported` of the metadata; by default `scopes` and every scope a tool, resource or prompt needs. */
  scopesSupported?: string[];
  /** JWT access tokens (RFC 9068), checked with the issuer's keys; `false` accepts introspected tokens only. */
  jwt?: JwtOptions | false;
  /** Opaque access tokens, checked by introspection (RFC 7662). */
  introspection?: IntrospectionOptions;
  /** DPoP-bound tokens (RFC 9449): given, the challenges offer DPoP and these settings apply. */
  dpop?: DpopOptions;
  /** Clock skew allowed when checking `exp`, `nbf` and a proof's `iat`, in seconds. Default 30. */
  clockTolerance?: number;
  /** More fields of the metadata document (`resource_name`, `resource_documentation` …). */
  metadata?: Record<string, unknown>;
  /** How long to wait for the authorization server's metadata, in ms. Default 5 s. */
  timeout?: number;
}

/** What the resource server asks of the MCP server it protects. */
export interface ProtectedScopes {
  /**
   * The scopes a message needs beyond the resource's own (those of the tool it calls, the
   * resource it reads, the prompt it gets), and what needs them, for the error.
   */
  requiredScopes?(
    message: JSONRPCMessage,
  ): { scopes: readonly string[] | undefined; what: string } | undefined;
  /** Every scope a tool, resource or prompt needs, for the metadata. */
  declaredScopes?(): readonly string[];
}

/** Scope tokens as RFC 6749 §3.3 has them: printable ASCII without space, `"` and `\`. */
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

/**
 * The resource-server side of MCP authorization, for any HTTP transport: it serves the
 * protected-resource metadata (RFC 9728), checks each request's access token (a JWT with the
 * issuer's keys, or by introspection; DPoP-bound tokens with their proof), answers what falls
 * short with 401/403 and a `WWW-Authenticate` challenge (RFC 6750, RFC 9449), and checks each
 * message's scopes before the server sees it. Pass it, or its options, as `auth` of `serveHttp`.
 */
export class ResourceServer implements HttpAuthHooks {
  /** The well-known routes of the metadata document, to mount beside the MCP endpoint. */
  readonly routes: MetadataRoutes;
  private canonical: string | undefined;
  private readonly scopes: readonly string[];
  private readonly leeway: number;
  private readonly jwt: JwtVerifier | undefined;
  private readonly introspector: Introspector | undefined;
  private readonly dpop: DpopVerifier;
  /** JWTs verified before, by the `Authorization` header that presented them. */
  private readonly verified: VerifiedTokens<KnownToken> | undefined;
  private asMetadata: Promise<AuthorizationServerMetadata> | undefined;

  constructor(
    private readonly options: ProtectedResourceOptions,
    private server: ProtectedScopes = {},
  ) {
    if (typeof options.issuer !== "string") throw new TypeError("auth needs the issuer of its tokens");
    trustedUrl(options.issuer, "The issuer");
    if (options.resource !== undefined) this.canonical = canonicalResource(options.resource);
    this.scopes = checkedScopes(options.scopes ?? [], "scopes");
    checkedScopes(options.scopesSupported ?? [], "scopesSupported");
    this.leeway = options.clockTolerance ?? 30;
    if (options.jwt === false && !options.introspection)
      throw new TypeError("auth with jwt: false needs introspection to check tokens");
    const resource = () => this.resource;
    if (options.jwt !== false) {
      this.jwt = new JwtVerifier(options.issuer, resource, options.jwt ?? {}, this.leeway, async () => {
        const uri = (await this.authorizationServer()).jwks_uri;
        if (uri === undefined) throw new AuthUnavailableError(`${options.issuer} publishes no jwks_uri`);
        return uri;
      });
      const cache = options.jwt?.cache;
      if (cache !== false)
        this.verified = new VerifiedTokens(cache?.maxTokens ?? 1000, cache?.maxAge ?? 300, this.leeway);
    }
    if (options.introspection) {
      this.introspector = new Introspector(
        options.issuer,
        resource,
        options.introspection,
        this.leeway,
        async () => (await this.authorizationServer()).introspection_endpoint,
      );
    }
    this.dpop = new DpopVerifier(options.dpop ?? {}, this.leeway);
    this.routes = new MetadataRoutes(
      () => new URL(this.resource).pathname.replace(/\/$/, ""),
      () => this.metadata(),
    );
  }

  /** The canonical URI tokens must name. */
  get resource(): string {
    if (this.canonical === undefined)
      throw new Error("The protected resource's URI is not known yet: give auth a resource");
    return this.canonical;
  }

  /** @internal Sets the resource's URI once it is known, when none was given (the URL `serveHttp` listens at). */
  useResource(url: string): void {
    this.canonical ??= canonicalResource(url);
  }

  /** @internal Learns the scopes of the server it protects, when it was made without them. */
  useScopes(server: ProtectedScopes): void {
    if (!this.server.requiredScopes && !this.server.declaredScopes) this.server = server;
  }

  /** The protected-resource metadata document (RFC 9728). */
  metadata(): ProtectedResourceMetadata {
    const declared = this.server.declaredScopes?.() ?? [];
    const supported = this.options.scopesSupported ?? [...new Set([...this.scopes, ...declared])];
    const document: ProtectedResourceMetadata = {
      resource: this.resource,
      authorization_servers: [this.options.issuer],
      bearer_methods_supported: ["header"],
      dpop_signing_alg_values_supported: [...this.dpop.algorithms],
    };
    if (supported.length > 0) document.scopes_supported = supported;
    if (this.dpop.required) document.dpop_bound_access_tokens_required = true;
    return { ...this.options.metadata, ...document };
  }

  /** The verified caller of a request, or the refusal to answer it with. */
  async authenticate(exchange: HttpExchange): Promise<AuthInfo | HttpRefusal> {
    try {
      let known = await this.known(exchange);
      if (known === undefined) {
        const presented = presentedToken(exchange);
        if (typeof presented === "string") return unauthorized(this.challengeContext(), presented);
        known = await this.verify(presented, exchange);
      }
      const { auth } = known;
      const missing = this.scopes.filter((scope) => !auth.scopes.includes(scope));
      if (missing.length > 0) {
        const error = new AuthError(
          "insufficient_scope",
          `the token lacks scope ${missing.join(" ")}`,
          known.scheme,
        );
        return refusal(this.challengeContext(), error);
      }
      return auth;
    } catch (error) {
      if (error instanceof AuthError)
        return refusal(
          this.challengeContext(),
          error,
          undefined,
          error.code === "use_dpop_nonce" ? this.dpop.nonce() : undefined,
        );
      if (error instanceof AuthUnavailableError)
        return {
          refused: true,
          status: 503,
          headers: { "retry-after": "5" },
          message: `Service Unavailable: ${error.message}`,
        };
      throw error;
    }
  }

  /** Whether the caller may send this message: the scopes of what it calls, reads or gets. */
  authorize(message: JSONRPCMessage, auth: AuthInfo): HttpRefusal | undefined {
    const required = this.server.requiredScopes?.(message);
    const needed = required?.scopes;
    if (!needed || needed.length === 0) return undefined;
    const missing = needed.filter((scope) => !auth.scopes.includes(scope));
    if (missing.length === 0) return undefined;
    const error = new AuthError(
      "insufficient_scope",
      `${required.what} needs scope ${missing.join(" ")}`,
      auth.jkt === undefined ? "Bearer" : "DPoP",
    );
    return refusal(this.challengeContext(), error, [...new Set([...this.scopes, ...needed])]);
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

  private async verify(presented: PresentedToken, exchange: HttpExchange): Promise<KnownToken> {
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
    const url = new URL(exchange.url, this.resource);
    await this.dpop.verify(presented.proof, {
      method: exchange.method,
      url: `${url.origin}${url.pathname}`,
      token: presented.token,
      jkt: auth.jkt,
    });
  }

  private challengeContext(): ChallengeContext {
    return {
      metadataUrl: metadataUrl(this.resource),
      scopes: this.scopes,
      dpopAlgs: this.options.dpop ? this.dpop.algorithms : undefined,
      acceptedDpopAlgs: this.dpop.algorithms,
    };
  }

  /** The issuer's metadata, fetched once; fetched again after a failure. */
  private authorizationServer(): Promise<AuthorizationServerMetadata> {
    if (this.asMetadata) return this.asMetadata;
    const fetching = discoverMetadata(this.options.issuer, this.options.timeout ?? 5000);
    this.asMetadata = fetching;
    fetching.catch(() => {
      if (this.asMetadata === fetching) this.asMetadata = undefined;
    });
    return fetching;
  }
}

function checkedScopes(scopes: readonly string[], option: string): readonly string[] {
  if (!Array.isArray(scopes)) throw new TypeError(`auth ${option} must be a list of scopes`);
  for (const scope of scopes) {
    if (typeof scope !== "string" || !SCOPE_TOKEN.test(scope))
      throw new TypeError(`auth ${option}: ${JSON.stringify(scope)} is not a scope (RFC 6749 §3.3)`);
  }
  return scopes;
}

/**
 * A header's key in the cache: the tail of its signature, so a lookup hashes 64 characters, not
 * the whole token; the entry's full header is compared before it is used.
 */
const tokenKey = (header: string) => header.slice(-64);
