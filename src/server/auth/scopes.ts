import { ErrorCode, McpError } from "../../jsonrpc/errors.js";
import type { AuthInfo } from "../../protocol/transport.js";

/** The scopes a tool, resource or prompt needs of its caller's token; none when unset or empty. */
export type Scopes = readonly string[] | undefined;

/** Which listed items a caller sees: with `hideUnauthorized`, only those whose scopes it holds. */
export type Visible = ((scopes: Scopes) => boolean) | undefined;

/** Scope tokens as RFC 6749 §3.3 has them: printable ASCII without space, `"` and `\`. */
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

/** Whether `value` is one scope token. */
export function isScopeToken(value: unknown): value is string {
  return typeof value === "string" && SCOPE_TOKEN.test(value);
}

/** The `scopes` of a registration, checked: a list of scope tokens, frozen; `undefined` for none. */
export function scopesOption(value: unknown, owner: string): Scopes {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.every(isScopeToken)) {
    throw new TypeError(`The scopes of ${owner} must be a list of OAuth scopes (no spaces or quotes)`);
  }
  return value.length === 0 ? undefined : Object.freeze([...value]);
}

/** Whether a caller holds every scope; a caller without verified credentials holds none. */
function holds(auth: AuthInfo | undefined, scopes: Scopes): boolean {
  if (scopes === undefined) return true;
  if (auth === undefined) return false;
  return scopes.every((scope) => auth.scopes.includes(scope));
}

/**
 * Refuses a request, before its handler runs, whose caller lacks a scope `what` needs. Over HTTP
 * with `auth` the endpoint has answered 403 already; this holds for every other way in, and a
 * request without verified credentials holds no scope.
 */
export function requireScopes(auth: AuthInfo | undefined, scopes: Scopes, what: string): void {
  if (holds(auth, scopes)) return;
  const missing = scopes!.filter((scope) => !auth?.scopes.includes(scope));
  throw new McpError(
    ErrorCode.ServerError,
    `Forbidden: ${what} needs scope ${missing.join(" ")}${auth ? "" : " (the request carries no access token)"}`,
    { requiredScopes: [...scopes!] },
  );
}

/** The visibility rule of a request: everything, or (hiding) what its caller may use. */
export function visibleTo(auth: AuthInfo | undefined, hide: boolean): Visible {
  return hide ? (scopes) => holds(auth, scopes) : undefined;
}
