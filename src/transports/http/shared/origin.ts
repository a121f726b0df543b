import type { HttpExchange } from "./exchange.js";

/** Which `Host` and `Origin` values the endpoint accepts (DNS-rebinding protection). */
export interface OriginPolicy {
  /** Host names (without port) a request may be addressed to. */
  allowedHosts?: string[];
  /** Origins (`scheme://host[:port]`) or bare host names a browser request may come from. */
  allowedOrigins?: string[];
}

/** The names a loopback server answers to by default. */
export const LOCALHOST_NAMES = ["localhost", "127.0.0.1", "[::1]", "::1"];

/** Whether a bind address is a loopback address, where localhost-only defaults apply. */
export function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || host === "[::1]" || host.startsWith("127.");
}

function hostname(hostHeader: string): string {
  if (hostHeader.startsWith("[")) return hostHeader.slice(0, hostHeader.indexOf("]") + 1);
  const colon = hostHeader.indexOf(":");
  return (colon === -1 ? hostHeader : hostHeader.slice(0, colon)).toLowerCase();
}

/** Why the request's `Host` or `Origin` is refused, or `undefined` if it is allowed. */
export function originProblem(exchange: HttpExchange, policy: OriginPolicy): string | undefined {
  if (policy.allowedHosts) {
    const host = exchange.header("host");
    if (host === undefined || !policy.allowedHosts.includes(hostname(host))) {
      return `Host ${JSON.stringify(host ?? "")} is not allowed`;
    }
  }
  const origin = exchange.header("origin");
  if (origin !== undefined && policy.allowedOrigins) {
    let name: string;
    try {
      name = new URL(origin).hostname;
    } catch {
      return `Origin ${JSON.stringify(origin)} is not a valid origin`;
    }
    const bracketed = name.includes(":") && !name.startsWith("[") ? `[${name}]` : name;
    if (!policy.allowedOrigins.includes(origin) && !policy.allowedOrigins.includes(bracketed)) {
      return `Origin ${JSON.stringify(origin)} is not allowed`;
    }
  }
  return undefined;
}

/** The policy of a server bound to `host`: on loopback, Host and Origin default to localhost names. */
export function bindPolicy(host: string, given: OriginPolicy): OriginPolicy {
  const local = isLoopback(host);
  return {
    allowedHosts: given.allowedHosts ?? (local ? LOCALHOST_NAMES : undefined),
    allowedOrigins: given.allowedOrigins ?? (local ? LOCALHOST_NAMES : undefined),
  };
}
