import { createRemoteJWKSet, errors, type JWTPayload, jwtVerify, type RemoteJWKSet } from "jose";
import { inertText } from "../../util/inert-text.js";
import { AuthError, AuthUnavailableError } from "./errors.js";
import { audienceMatches, trustedUrl } from "./urls.js";

/** How JWT access tokens (RFC 9068) are checked. */
export interface JwtOptions {
  /** Where the issuer's signing keys are; by default its metadata's `jwks_uri`. */
  jwksUri?: string;
  /** The signature algorithms accepted. Default: RSA, RSA-PSS, ECDSA and EdDSA; never `none` or HMAC. */
  algorithms?: string[];
  /**
   * The `typ` header values an access token may have, compared as media types (case-insensitive,
   * `application/` optional); `null` admits a token without one. Default `["at+jwt"]`, as RFC 9068
   * §4 requires, so that an ID token or another JWT of the same issuer is not taken for an access
   * token. Some authorization servers type their access tokens `JWT` (Microsoft Entra ID, Auth0's
   * default profile, Keycloak) or leave `typ` out (Amazon Cognito): `["at+jwt", "JWT"]` or
   * `["at+jwt", null]` accepts theirs; the `aud` check still refuses tokens for anything else.
   */
  typ?: readonly (string | null)[];
  /**
   * Tokens kept once verified, so a token sent again is not checked again: at most `maxTokens`
   * (default 1,000), each until it expires or for `maxAge` seconds (default 300), whichever comes
   * first. `false` checks every request's token in full.
   */
  cache?: { maxTokens?: number; maxAge?: number } | false;
}

/** The `typ` of JWT access tokens (RFC 9068 §4). */
const DEFAULT_JWT_TYPES: readonly (string | null)[] = ["at+jwt"];

const DEFAULT_JWT_ALGORITHMS = [
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
 * `iss`, `aud` naming this resource (a token for another resource is refused, RFC 8707), `exp`
 * (required) and `nbf` with a leeway, and a `typ` saying it is an access token.
 */
export class JwtVerifier {
  private keys: RemoteJWKSet | undefined;
  private readonly algorithms: string[];
  /** The accepted `typ` values as media types; `null` for a token without one. */
  private readonly types: ReadonlySet<string | null>;

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
    this.types = new Set(checkedTypes(options.typ ?? DEFAULT_JWT_TYPES).map(mediaType));
  }

  /** The token's claims, or an `invalid_token` error saying what is wrong with it. */
  async verify(token: string, scheme: "Bearer" | "DPoP"): Promise<JWTPayload> {
    const keys = this.keys ?? (await this.loadKeys());
    let payload: JWTPayload;
    let typ: unknown;
    try {
      ({
        payload,
        protectedHeader: { typ },
      } = await jwtVerify(token, keys, {
        issuer: this.issuer,
        algorithms: this.algorithms,
        clockTolerance: this.leeway,
        requiredClaims: ["exp"],
      }));
    } catch (error) {
      throw tokenError(error, scheme);
    }
    if (!this.typeAccepted(typ)) throw new AuthError("invalid_token", this.typProblem(typ), scheme);
    if (!audienceMatches(payload.aud, this.resource())) {
      throw new AuthError("invalid_token", `the token is not meant for ${this.resource()} (aud)`, scheme);
    }
    return payload;
  }

  private typeAccepted(typ: unknown): boolean {
    if (typ === undefined) return this.types.has(null);
    return typeof typ === "string" && this.types.has(mediaType(typ));
  }

  /**
   * Why a signed token's `typ` is refused, and the option that accepts it: an authorization server
   * that types its access tokens as any JWT is for the operator to allow, not for the caller to fix.
   */
  private typProblem(typ: unknown): string {
    const accepted = this.options.typ ?? DEFAULT_JWT_TYPES;
    const names = accepted.map((value) => value ?? "none").join(", ");
    const rule = `an access token's typ is ${names} (RFC 9068)`;
    if (typ !== undefined && typeof typ !== "string")
      return `the token's typ header is not a string; ${rule}`;
    const shown = typ === undefined ? undefined : inertText(typ, { max: 64 });
    const widened = [...accepted, shown ?? null].map((value) => (value === null ? "null" : `'${value}'`));
    const given = shown === undefined ? "the token has no typ header" : `the token's typ header is ${shown}`;
    const issued = shown === undefined ? "without typ" : `typed ${shown}`;
    return `${given}; ${rule}. If the authorization server issues access tokens ${issued}, accept them with the resource server's option jwt: { typ: [${widened.join(", ")}] }`;
  }

  private async loadKeys(): Promise<RemoteJWKSet> {
    const uri = this.options.jwksUri ?? (await this.jwksUri());
    this.keys ??= createRemoteJWKSet(new URL(uri), { timeoutDuration: 5000, cooldownDuration: 30_000 });
    return this.keys;
  }
}

function checkedTypes(types: readonly (string | null)[]): readonly (string | null)[] {
  if (
    !Array.isArray(types) ||
    types.length === 0 ||
    !types.every((t) => t === null || (typeof t === "string" && t !== ""))
  )
    throw new TypeError(
      'auth jwt.typ must list the accepted typ values: strings such as "at+jwt", or null for none',
    );
  return types;
}

/** A `typ` as the media type it names (RFC 7515 §4.1.9): case-insensitive, `application/` implied. */
function mediaType(typ: string | null): string | null {
  if (typ === null) return null;
  const lower = typ.toLowerCase();
  return lower.startsWith("application/") && !lower.slice(12).includes("/") ? lower.slice(12) : lower;
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
