import type { CacheHint, ResultStamp } from "../../protocol/eras/era.js";
import { modern } from "../../protocol/eras/modern.js";
import type { Implementation } from "../../protocol/types/base.js";
import type { ServerCapabilities } from "../../protocol/types/lifecycle.js";
import { extend } from "../../util/extend.js";
import type { ResourceRegistry } from "../registries/resources.js";
import type { RequestContext } from "../sessions/context.js";
import type { RequestStateSigner } from "../sessions/request-state.js";
import { checkScopes, type DispatchRow, notOffered } from "./dispatch.js";
import { openInputRounds, serverMetaOf } from "./modern-dispatch.js";

/** What answering a stateless request needs of its server. */
interface StatelessHost {
  readonly serverInfo: Implementation;
  readonly cache: Partial<CacheHint> | undefined;
  readonly hideUnauthorized: boolean;
  readonly signer: RequestStateSigner;
  readonly resources: ResourceRegistry;
  /** The capabilities as of now: a stateless request has no session that fixed them. */
  capabilities(): ServerCapabilities;
}

/**
 * Answers the stateless (2026-07-28) requests of a server from its dispatch table: capabilities
 * as of now, input rounds, and the era's result shape, with the stamps made once.
 */
export class StatelessServing {
  private readonly cache: CacheHint;
  /** What every stateless result carries: the server's identity, and caching hints where due. */
  private readonly stamp: ResultStamp;
  private readonly uncachedStamp: ResultStamp;

  constructor(private readonly host: StatelessHost) {
    this.cache = { ttlMs: 0, cacheScope: "private", ...host.cache };
    const serverMeta = serverMetaOf(host.serverInfo);
    this.stamp = { serverMeta, cache: this.cache };
    this.uncachedStamp = { serverMeta, cache: undefined };
  }

  serve(entry: DispatchRow, params: Record<string, unknown>, ctx: RequestContext): object | Promise<object> {
    const { method, capability } = entry;
    if (capability && !this.host.capabilities()[capability]) throw notOffered(method, capability);
    if (entry.scopes) checkScopes(entry, params, ctx);
    const stamp = entry.cacheable ? this.stampOf(method, params) : this.uncachedStamp;
    if (entry.asks) openInputRounds(method, entry.asks, params, ctx, this.host.signer, stamp);
    let result: object | Promise<object>;
    try {
      result = entry.handler(params, ctx);
    } catch (error) {
      throw modern.mapError(error);
    }
    // No closure for the common, synchronous answer.
    if (!(result instanceof Promise)) return modern.decorate(method, result, stamp);
    return result.then(
      (value) => modern.decorate(method, value, stamp),
      (error) => {
        throw modern.mapError(error);
      },
    );
  }

  /** The stamp of a cacheable result: a resource may have caching hints of its own. */
  private stampOf(method: string, params: Record<string, unknown>): ResultStamp {
    const read = method === "resources/read";
    const resources = this.host.resources;
    const own = read ? resources.cacheHint(String(params.uri)) : undefined;
    const cache = own ? extend(this.cache, own) : this.cache;
    // What depends on the caller's scopes is never for shared caches.
    const perCaller = read
      ? resources.scopesOf(params.uri) !== undefined
      : this.host.hideUnauthorized && method !== "server/discover";
    if (perCaller && cache.cacheScope === "public")
      return { serverMeta: this.stamp.serverMeta, cache: { ...cache, cacheScope: "private" } };
    return own ? { serverMeta: this.stamp.serverMeta, cache } : this.stamp;
  }
}
