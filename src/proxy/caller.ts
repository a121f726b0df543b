/**
 * The proxy as an identity boundary: which caller a forwarded request is for, and the credentials
 * the proxy presents upstream for it. The caller's own token never leaves the proxy: the spec
 * forbids token passthrough, since an upstream would then accept a token not meant for it.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { AuthInfo } from "../protocol/transport.js";
import type { RequestContext } from "../server/sessions/context.js";

/** What the proxy asks when it sends a request to an HTTP upstream. */
export interface UpstreamAuthRequest {
  /** The upstream's name (as in rules and audit lines). */
  server: string;
  /**
   * The verified caller the request is forwarded for; `undefined` for the proxy's own requests
   * (connecting, listing) and when its front takes no tokens.
   */
  caller: AuthInfo | undefined;
}

/**
 * The access token the proxy sends to an upstream (as `Authorization: Bearer`), or `undefined`
 * for none: its own (a client credentials grant), or one obtained for the caller by token exchange
 * (RFC 8693) with the upstream as audience. Called for every request, so cache what you fetch.
 * Returning the caller's own token is refused.
 */
export type UpstreamAuth = (request: UpstreamAuthRequest) => string | undefined | Promise<string | undefined>;

/** The caller of the request being forwarded, through every await of its forwarding. */
const forwarding = new AsyncLocalStorage<AuthInfo | undefined>();

/** Runs `forward` as the request of `ctx`'s caller: upstream requests it makes are for that caller. */
export function asCaller<T>(ctx: RequestContext, forward: () => T): T {
  // Entering a store turns on async hooks for every promise of the process from then on: only
  // when there is a caller to carry (or one to clear).
  if (ctx.auth === undefined && forwarding.getStore() === undefined) return forward();
  return forwarding.run(ctx.auth, forward);
}

/** The `requestHeaders` of the upstreams: the token `upstreamAuth` gives for the current caller. */
export function upstreamHeaders(
  upstreamAuth: UpstreamAuth,
  label: (server: string) => string,
): (server: string) => Promise<Record<string, string>> {
  return async (server): Promise<Record<string, string>> => {
    const caller = forwarding.getStore();
    const token = await upstreamAuth({ server: label(server), caller });
    if (token === undefined) return {};
    if (caller !== undefined && token === caller.token) {
      throw new Error(
        `upstreamAuth returned the caller's own token for ${label(server)}: token passthrough is forbidden`,
      );
    }
    return { authorization: `Bearer ${token}` };
  };
}
