import type { HttpExchange } from "../../transports/http/shared/exchange.js";
import { AuthError } from "./errors.js";

/** An access token as a request presents it. */
export interface PresentedToken {
  readonly scheme: "Bearer" | "DPoP";
  readonly token: string;
  /** The `DPoP` header: the proof of possession sent with it, if any. */
  readonly proof: string | undefined;
}

/** What RFC 6750 allows a bearer token to be (`b64token`); DPoP tokens are the same (RFC 9449). */
const TOKEN68 = /^[A-Za-z0-9\-._~+/]+=*$/;

/**
 * The token a request presents in its `Authorization` header; a string saying why there is none
 * this resource accepts (no header, another scheme). A malformed header, or a token in the URI
 * (which MCP forbids), is an `invalid_request`.
 */
export function presentedToken(exchange: HttpExchange): PresentedToken | string {
  if (/[?&]access_token=/.test(exchange.url)) {
    throw new AuthError("invalid_request", "access tokens are accepted only in the Authorization header");
  }
  const header = exchange.header("authorization");
  if (header === undefined || header.trim() === "") return "an access token is required";
  const match = /^([A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*)(?:\s+(.*))?$/.exec(header.trim());
  const name = match?.[1]?.toLowerCase();
  if (name !== "bearer" && name !== "dpop") {
    return `the ${match?.[1] ?? "given"} authorization scheme is not accepted; send a Bearer token`;
  }
  const scheme = name === "bearer" ? "Bearer" : "DPoP";
  const token = match![2] ?? "";
  if (!TOKEN68.test(token)) {
    throw new AuthError(
      "invalid_request",
      token === "" ? `the ${scheme} authorization has no token` : `the ${scheme} token is malformed`,
      scheme,
    );
  }
  return { scheme, token, proof: exchange.header("dpop") };
}

/** Whether a token has the shape of a JWT (three base64url parts), rather than an opaque handle. */
export function looksLikeJwt(token: string): boolean {
  return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(token);
}
