import type { AuthInfo } from "../../protocol/transport.js";
import { AuthError } from "./errors.js";

/**
 * The caller a token's claims describe (a JWT's payload or an introspection response): `sub`,
 * else the client of a client's own token; `scope` (RFC 9068, RFC 7662), or `scp` as some
 * authorization servers write it.
 */
export function authInfoOf(
  claims: Record<string, unknown>,
  issuer: string,
  token: string,
  scheme: "Bearer" | "DPoP",
): AuthInfo {
  const clientId = stringClaim(claims.client_id) ?? stringClaim(claims.azp);
  const subject = stringClaim(claims.sub) ?? clientId;
  if (subject === undefined) throw new AuthError("invalid_token", "the token names no subject", scheme);
  const cnf = claims.cnf as { jkt?: unknown } | undefined;
  const info: Omit<AuthInfo, "token"> = {
    subject,
    clientId,
    scopes: scopesOf(claims),
    issuer: stringClaim(claims.iss) ?? issuer,
    expiresAt: typeof claims.exp === "number" ? claims.exp : undefined,
    jkt: typeof cnf?.jkt === "string" ? cnf.jkt : undefined,
    claims: Object.freeze({ ...claims }),
  };
  return Object.freeze(Object.defineProperty(info, "token", { value: token, enumerable: false })) as AuthInfo;
}

function stringClaim(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

function scopesOf(claims: Record<string, unknown>): string[] {
  const value = claims.scope ?? claims.scp;
  if (typeof value === "string") return value.split(" ").filter((scope) => scope !== "");
  if (Array.isArray(value)) return value.filter((scope): scope is string => typeof scope === "string");
  return [];
}

/** Whether a time claim is past (`exp`) or still ahead (`nbf`), allowing `leeway` seconds. */
export function timeProblem(claims: Record<string, unknown>, leeway: number): string | undefined {
  const now = Math.floor(Date.now() / 1000);
  const { exp, nbf } = claims;
  if (exp !== undefined && (typeof exp !== "number" || exp + leeway <= now)) return "the token has expired";
  if (nbf !== undefined && (typeof nbf !== "number" || nbf - leeway > now))
    return "the token is not valid yet";
  return undefined;
}
