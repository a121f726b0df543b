import type { JSONRPCMessage } from "../../../jsonrpc/messages.js";
import type { AuthInfo } from "../../../protocol/transport.js";
import type { HttpExchange } from "./exchange.js";

/** The answer an endpoint sends instead of serving a request whose credentials fall short. */
export interface HttpRefusal {
  readonly refused: true;
  /** 400, 401 or 403; 503 when the credentials could not be checked. */
  readonly status: number;
  /** `WWW-Authenticate`, and `DPoP-Nonce` where due. */
  readonly headers: Readonly<Record<string, string>>;
  /** What the JSON-RPC error of the body says. */
  readonly message: string;
}

/**
 * How an HTTP endpoint checks who calls it (a resource server's helpers plug in here): each
 * request's credentials before its body is read, then each message against what it may do.
 */
export interface HttpAuthHooks {
  /** The caller of a request, or the refusal to answer it with. */
  authenticate(exchange: HttpExchange): Promise<AuthInfo | HttpRefusal>;
  /** Whether the caller may send this message (its scopes); the refusal (403) if not. */
  authorize?(message: JSONRPCMessage, auth: AuthInfo): HttpRefusal | undefined;
}

export function isRefusal(value: AuthInfo | HttpRefusal): value is HttpRefusal {
  return (value as HttpRefusal).refused === true;
}

/**
 * Whom a session is bound to: the same subject of the same issuer through the same client. A
 * refreshed token (other scopes, other expiry) is still the same caller.
 */
export function principalOf(auth: AuthInfo): string {
  return JSON.stringify([auth.issuer, auth.subject, auth.clientId ?? null]);
}
