import { createRemoteJWKSet, errors, type JWTPayload, jwtVerify, type RemoteJWKSet } from "jose";
import { AuthError, AuthUnavailableError } from "./errors.js";
import { audienceMatches, trustedUrl } from "./urls.js";

/** How JWT access tokens (RFC 9068) are checked. */
export interface JwtOptions {
  /** Where the issuer's signing keys are; by default its metadata's `jwks_uri`. */
  jwksUri?: string;
  /** The signature algorithms accepted. Default: RSA, RSA-PSS, ECDSA and EdDSA; never `none` or HMAC. */
  algorithms?: string[];
  /** The `typ` header every token must have, such as `"at+jwt"` (RFC 9068). Default: any. */
  typ?: string;
  /**
   * Tokens kept once verified, so a token sent again is not checked again: at most `maxTokens`
   * (default 1,000), each until it expires or for `maxAge` seconds (default 300), whichever comes
   * first. `false` checks every request's token in full.
   */
  cache?: { maxTokens?: number; maxAge?: number } | false;
}

export const DEFAULT_JWT_ALGORITHMS = [
  "RS256",
  "RS384",
  "RS512",
  "PS256",
  "PS384",
  "PS512",
  "ES256",
  "ES384",
  "ES512",
  "EdDSA",
  "Ed25519",
];

/**
 * Verifies JWT access tokens: the signature with the issuer's published keys (fetched once, kept,
 * and fetched again for a key it does not know yet, so keys can rotate), an allowed algorithm,
 * `iss`, `aud` naming this resource (a token for another resource is refused, RFC 8707), and
 * `exp` (required) and `nbf` with a leeway.
 */
export class JwtVerifier {
  private keys: RemoteJWKSet | undefined;
  private readonly algorithms: string[];

  constructor(
    private readonly issuer: string,
    private readonly resource: () => string,
    private readonly options: JwtOptions,
    private readonly leeway: number,
    private readonly jwksUri: () => Promise<string>,
  ) {
    this.algorithms = options.algorithms ?? DEFAULT_JWT_ALGORITHMS;
    const weak = this.algorithms.filter((alg) => alg === "none" || alg.startsWith("HS"));
    if (weak.length > 0) throw new TypeError(`JWT access tokens cannot be accepted with ${weak.join(", ")}`);
    if (options.jwksUri !== undefined) trustedUrl(options.jwksUri, "The JWKS URI");
  }

  /** The token's claims, or an `invalid_token` error saying what is wrong with it. */
  async verify(token: string, scheme: "Bearer" | "DPoP"): Promise<JWTPayload> {
    const keys = this.keys ?? (await this.loadKeys());
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, keys, {
        issuer: this.issuer,
        algorithms: this.algorithms,
        clockTolerance: this.leeway,
        requiredClaims: ["exp"],
        ...(this.options.typ === undefined ? {} : { typ: this.options.typ }),
      }));
    } catch (error) {
      throw tokenError(error, scheme);
    }
    if (!audienceMatches(payload.aud, this.resource())) {
      throw new AuthError("invalid_token", `the token is not meant for ${this.resource()} (aud)`, scheme);
    }
    return payload;
  }

  private async loadKeys(): Promise<RemoteJWKSet> {
    const uri = this.options.jwksUri ?? (await this.jwksUri());
    this.keys ??= createRemoteJWKSet(new URL(uri), { timeoutDuration: 5000, cooldownDuration: 30_000 });
    return this.keys;
  }
}

/** What a failed verification says to the caller; a key set that cannot be fetched is not its fault. */
function tokenError(error: unknown, scheme: "Bearer" | "DPoP"): Error {
  if (error instanceof errors.JWTExpired)
    return new AuthError("invalid_token", "the token has expired", scheme);
  if (error instanceof errors.JWTClaimValidationFailed) {
    const reason =
      error.claim === "nbf"
        ? "the token is not valid yet"
        : error.claim === "iss"
          ? "the token was not issued by this resource's authorization server (iss)"
          : error.reason === "missing"
            ? `the token has no ${error.claim} claim`
            : `the token's ${error.claim} claim is invalid: ${error.reason}`;
    return new AuthError("invalid_token", reason, scheme);
  }
  if (error instanceof errors.JWSSignatureVerificationFailed || error instanceof errors.JWKSNoMatchingKey) {
    return new AuthError("invalid_token", "the token's signature does not verify", scheme);
  }
  if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JOSENotSupported) {
    return new AuthError(
      "invalid_token",
      "the token is signed with an algorithm that is not accepted",
      scheme,
    );
  }
  if (
    error instanceof errors.JWSInvalid ||
    error instanceof errors.JWTInvalid ||
    error instanceof errors.JWKSMultipleMatchingKeys
  ) {
    return new AuthError("invalid_token", `the token is malformed: ${error.message}`, scheme);
  }
  return new AuthUnavailableError(
    `the authorization server's keys could not be fetched: ${(error as Error).message}`,
  );
}
