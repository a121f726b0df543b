import { ErrorCode, McpError } from "../../jsonrpc/errors.js";

/** What an `OAuthError` carries in `data`. */
export interface OAuthErrorData {
  /** Set on every authorization failure: what `isOAuthError` looks for. */
  authorizationFailed: true;
  /** The OAuth error code the authorization server answered with (`invalid_grant`, …), if any. */
  oauthError?: string;
  /** The authorization server's `error_description`, if any. */
  description?: string;
}

/**
 * Authorization failed: discovery found nothing usable or something was refused (a metadata issuer
 * or resource that does not match, a URL the client will not visit), the user or the authorization
 * server said no, or the retries ran out. The request that needed the authorization fails with it
 * (code -32603, `data.authorizationFailed`; test with `isOAuthError`).
 */
export class OAuthError extends McpError {
  constructor(
    message: string,
    details: Omit<OAuthErrorData, "authorizationFailed"> = {},
    options?: { cause?: unknown },
  ) {
    super(ErrorCode.InternalError, message, { authorizationFailed: true, ...details }, options);
  }
}

/** Whether `error` (an `McpError`, an `OAuthError` or its wire form) says authorization failed. */
export function isOAuthError(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const data = (error as { data?: unknown }).data;
  return typeof data === "object" && data !== null && (data as OAuthErrorData).authorizationFailed === true;
}
