import type * as oauth from "oauth4webapi";
import type { ResourceMetadata } from "./discovery.js";

/** What the scopes of one authorization are chosen from. */
interface ScopeSources {
  /** The `scope` of the challenge that asked for authorization. */
  challenged: string[] | undefined;
  /** The scopes the options ask for. */
  configured: string[] | undefined;
  /** The protected-resource metadata, if the server has one. */
  resource: ResourceMetadata | undefined;
  as: oauth.AuthorizationServer;
  /** What the previous authorization asked for, on a step-up (`403 insufficient_scope`). */
  previous: string[] | undefined;
  /** Whether to ask for `offline_access` (a refresh token) when the authorization server offers it. */
  wantsRefresh: boolean;
}

/**
 * The MCP specification's scope selection: the challenge's `scope`, else the configured ones,
 * else all the resource's `scopes_supported`, else none (the parameter is left out). A step-up
 * asks for the union with what was asked before, so nothing granted is lost (SEP-2350).
 * `offline_access` is added only when the authorization server lists it.
 */
export function selectScopes(sources: ScopeSources): string[] {
  const chosen =
    sources.challenged ??
    sources.configured ??
    sources.resource?.scopes_supported?.filter((s) => typeof s === "string");
  const scopes = new Set([...(sources.previous ?? []), ...(chosen ?? [])]);
  if (sources.wantsRefresh && scopes.size > 0 && sources.as.scopes_supported?.includes("offline_access")) {
    scopes.add("offline_access");
  }
  return [...scopes];
}
