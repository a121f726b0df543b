import type { HttpRefusal } from "../../transports/http/shared/authenticate.js";
import type { AuthError } from "./errors.js";

/** What every challenge of one resource says. */
export interface ChallengeContext {
  /** Where its protected-resource metadata is (RFC 9728). */
  readonly metadataUrl: string;
  /** The scopes every token needs. */
  readonly scopes: readonly string[];
  /** The DPoP proof algorithms offered in a challenge to a caller without a token, if DPoP is. */
  readonly dpopAlgs: readonly string[] | undefined;
  /** The DPoP proof algorithms accepted. */
  readonly acceptedDpopAlgs: readonly string[];
}

const STATUS = {
  invalid_request: 400,
  invalid_token: 401,
  insufficient_scope: 403,
  invalid_dpop_proof: 401,
  use_dpop_nonce: 401,
} as const;

/**
 * The answer to a request without credentials this resource accepts (no `Authorization`, or
 * another scheme): 401 with no error code (RFC 6750 §3.1), naming the metadata and the scopes.
 */
export function unauthorized(context: ChallengeContext, why: string): HttpRefusal {
  const challenges = [bearer(context, undefined, context.scopes)];
  if (context.dpopAlgs) challenges.push(`DPoP algs="${context.dpopAlgs.join(" ")}"`);
  return {
    refused: true,
    status: 401,
    headers: { "www-authenticate": challenges.join(", ") },
    message: `Unauthorized: ${why}`,
  };
}

/**
 * The answer to refused credentials: 400 for a malformed request, 401 for a bad token or proof,
 * 403 for too few scopes, with the challenge of the token's scheme. `scopes` are what the request
 * needs (for `insufficient_scope`, everything the operation needs, not only what is missing).
 */
export function refusal(
  context: ChallengeContext,
  error: AuthError,
  scopes: readonly string[] = context.scopes,
  nonce?: string,
): HttpRefusal {
  const status = STATUS[error.code];
  const dpop =
    error.scheme === "DPoP" || error.code === "invalid_dpop_proof" || error.code === "use_dpop_nonce";
  const params = [`error="${error.code}"`, `error_description="${quoted(error.message)}"`];
  const challenge = dpop
    ? `DPoP ${[...params, `algs="${context.acceptedDpopAlgs.join(" ")}"`, ...scopeParam(scopes), metadataParam(context)].join(", ")}`
    : bearer(context, params, scopes);
  const headers: Record<string, string> = { "www-authenticate": challenge };
  if (nonce !== undefined) headers["dpop-nonce"] = nonce;
  const label = status === 400 ? "Bad Request" : status === 403 ? "Forbidden" : "Unauthorized";
  return { refused: true, status, headers, message: `${label}: ${error.message}` };
}

function bearer(context: ChallengeContext, params: string[] | undefined, scopes: readonly string[]): string {
  return `Bearer ${[...(params ?? []), metadataParam(context), ...scopeParam(scopes)].join(", ")}`;
}

function metadataParam(context: ChallengeContext): string {
  return `resource_metadata="${context.metadataUrl}"`;
}

function scopeParam(scopes: readonly string[]): string[] {
  return scopes.length === 0 ? [] : [`scope="${scopes.join(" ")}"`];
}

/** RFC 6750 allows only printable ASCII without `"` and `\` in an `error_description`. */
function quoted(text: string): string {
  return text.replace(/["\\]/g, "'").replace(/[^\x20-\x7e]/g, "?");
}
