import type { JSONRPCMessage } from "../../jsonrpc/messages.js";
import type { AuthInfo } from "../../protocol/transport.js";
import type { HttpAuthHooks, HttpRefusal } from "../../transports/http/shared/authenticate.js";
import type { HttpExchange } from "../../transports/http/shared/exchange.js";
import { type ChallengeContext, refusal, unauthorized } from "./challenge.js";
import { type AuthorizationServerMetadata, discoverMetadata } from "./discovery.js";
import { type DpopOptions, DpopVerifier } from "./dpop.js";
import { AuthError, AuthUnavailableError } from "./errors.js";
import type { IntrospectionOptions } from "./introspection.js";
import type { JwtOptions } from "./jwt.js";
import { MetadataRoutes, type ProtectedResourceMetadata } from "./metadata.js";
import { isScopeToken } from "./scopes.js";
import { TokenVerifier } from "./token-verifier.js";
import { canonicalResource, metadataUrl, trustedUrl } from "./urls.js";

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
  private readonly dpop: DpopVerifier;
  private readonly tokens: TokenVerifier;
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
    const leeway = options.clockTolerance ?? 30;
    if (options.jwt === false && !options.introspection)
      throw new TypeError("auth with jwt: false needs introspection to check tokens");
    this.dpop = new DpopVerifier(options.dpop ?? {}, leeway);
    this.tokens = new TokenVerifier(
      options,
      () => this.resource,
      this.dpop,
      leeway,
      () => this.authorizationServer(),
    );
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
      const known = await this.tokens.verify(exchange);
      if (typeof known === "string") return unauthorized(this.challengeContext(), known);
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
    if (!isScopeToken(scope))
      throw new TypeError(`auth ${option}: ${JSON.stringify(scope)} is not a scope (RFC 6749 §3.3)`);
  }
  return scopes;
}
