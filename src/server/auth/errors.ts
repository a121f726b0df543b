/**
 * How a request's credentials fall short, in the words of RFC 6750 (`invalid_request`,
 * `invalid_token`, `insufficient_scope`) and RFC 9449 (`invalid_dpop_proof`, `use_dpop_nonce`).
 */
export type AuthErrorCode =
  | "invalid_request"
  | "invalid_token"
  | "insufficient_scope"
  | "invalid_dpop_proof"
  | "use_dpop_nonce";

/** A refused credential: what is wrong, and under which scheme the challenge is sent. */
export class AuthError extends Error {
  override readonly name = "AuthError";

  constructor(
    readonly code: AuthErrorCode,
    message: string,
    /** The scheme the token came with: a DPoP token is answered with a DPoP challenge. */
    readonly scheme: "Bearer" | "DPoP" = "Bearer",
  ) {
    super(message);
  }
}

/**
 * The resource server could not check a token: the authorization server's keys or its
 * introspection endpoint did not answer. Not the caller's fault, so not a 401.
 */
export class AuthUnavailableError extends Error {
  override readonly name = "AuthUnavailableError";
}
