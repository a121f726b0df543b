import { ErrorCode, McpError } from "../../jsonrpc/errors.js";
import { inertText, PEER_TEXT_LIMIT } from "../../util/inert-text.js";
import { redactCredentials } from "./redact.js";

/** What an `OAuthError` carries in `data`. */
export interface OAuthErrorData {
  /** Set on every authorization failure: what `isOAuthError` looks for. */
  authorizationFailed: true;
  /**
   * The OAuth error code the authorization server answered with (`invalid_grant`, …), if any: its
   * control characters escaped, at most 1 KiB.
   */
  oauthError?: string;
  /**
   * The authorization server's `error_description`, if any: its control characters escaped, at most
   * 1 KiB, and anything that looks like a credential (an `Authorization` header value, a JWT, the
   * client's own secret or tokens) replaced by `[redacted]`.
   */
  description?: string;
  /**
   * Set when the authorization server does not let the client register itself (it offers no
   * registration endpoint, or refused the registration, for instance because it requires an
   * initial access token): the next step is a client registered there beforehand, passed as
   * `clientId` with its `issuer`.
   */
  needsPreRegisteredClient?: true;
}

/** The longest message an `OAuthError` keeps: the client's own words, and a capped peer text or two. */
const MESSAGE_LIMIT = 4 * PEER_TEXT_LIMIT;

/**
 * Authorization failed: discovery found nothing usable or something was refused (a metadata issuer
 * or resource that does not match, a URL the client will not visit, an authorization server other
 * than the credentials' `issuer`), the user or the authorization server said no, or the retries ran
 * out. The request that needed the authorization fails with it (code -32603,
 * `data.authorizationFailed`; test with `isOAuthError`).
 *
 * What an authorization server (or a server) said is peer text: in the message and in `data` it is
 * made inert (control characters escaped), capped, and stripped of anything that looks like a
 * credential, so a hostile server cannot paint the user's terminal or read back the client's secret
 * from a log.
 */
export class OAuthError extends McpError {
  constructor(
    message: string,
    details: Omit<OAuthErrorData, "authorizationFailed"> = {},
    options?: { cause?: unknown },
  ) {
    const data: OAuthErrorData = { authorizationFailed: true };
    if (details.oauthError !== undefined) data.oauthError = peerText(details.oauthError);
    if (details.description !== undefined) data.description = peerText(details.description);
    if (details.needsPreRegisteredClient) data.needsPreRegisteredClient = true;
    super(
      ErrorCode.InternalError,
      inertText(redactCredentials(message), { max: MESSAGE_LIMIT }),
      data,
      options,
    );
  }
}

/** A piece of peer text as errors keep it: credentials redacted, control characters escaped, 1 KiB at most. */
export function peerText(text: string): string {
  return inertText(redactCredentials(text), { max: PEER_TEXT_LIMIT });
}

/** What `answeredError` adds to the server's answer. */
interface AnsweredErrorOptions {
  cause?: unknown;
  /** What to do next, in the client's own words: after the server's text, so it is never cut off. */
  next?: string;
  needsPreRegisteredClient?: true;
}

/**
 * The failure an authorization server answered with (RFC 6749 §5.2), as an `OAuthError`: `what`
 * failed, then its `error` and `error_description`, each capped and made inert before they are put
 * together, so neither can push the other, or the client's own words, out of the message.
 */
export function answeredError(
  what: string,
  answer: { error?: unknown; description?: unknown },
  options: AnsweredErrorOptions = {},
): OAuthError {
  const error = typeof answer.error === "string" && answer.error !== "" ? peerText(answer.error) : undefined;
  const description =
    typeof answer.description === "string" && answer.description !== ""
      ? peerText(answer.description)
      : undefined;
  const { next, cause, needsPreRegisteredClient } = options;
  return new OAuthError(
    `${what}${error ? `: ${error}` : ""}${description ? ` (${description})` : ""}${next ? `; ${next}` : ""}`,
    {
      ...(error !== undefined && { oauthError: error }),
      ...(description !== undefined && { description }),
      ...(needsPreRegisteredClient && { needsPreRegisteredClient }),
    },
    cause === undefined ? undefined : { cause },
  );
}

/** Whether `error` (an `McpError`, an `OAuthError` or its wire form) says authorization failed. */
export function isOAuthError(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const data = (error as { data?: unknown }).data;
  return typeof data === "object" && data !== null && (data as OAuthErrorData).authorizationFailed === true;
}
