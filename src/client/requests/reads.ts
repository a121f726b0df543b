import { ErrorCode, McpError } from "../../jsonrpc/errors.js";
import type { RequestOptions } from "../../protocol/engine/peer.js";
import { ResultCache } from "./cache.js";
import { allPages } from "./paginate.js";

/** Sends a request (through the client's middleware and channel). */
export type Requester = <T>(
  method: string,
  params: Record<string, unknown> | undefined,
  options?: RequestOptions,
) => Promise<T>;

/** Refuses a request for what the server did not declare, as the server would. */
export function requireCapability(capability: unknown, what: string): void {
  if (!capability) throw new McpError(ErrorCode.MethodNotFound, `The server does not offer ${what}`);
}

/**
 * A client's cacheable reads (lists and `resources/read`): answered from the cache while the
 * server's `ttlMs` lasts, lists followed page by page.
 */
export class CachedReads {
  constructor(
    private readonly cache: ResultCache,
    private readonly request: Requester,
  ) {}

  /** One request, or its cached result. */
  async get<T>(
    method: string,
    params: Record<string, unknown> | undefined,
    options?: RequestOptions,
  ): Promise<T> {
    const key = ResultCache.key(method, params);
    const hit = this.cache.get(key);
    if (hit) return hit as T;
    const result = await this.request<Record<string, unknown>>(method, params, options);
    this.cache.put(key, result);
    return result as T;
  }

  /** One page of a list. */
  page<T>(method: string, cursor: string | undefined, options?: RequestOptions): Promise<T> {
    return this.get<T>(method, cursor === undefined ? undefined : { cursor }, options);
  }

  /** Every item of a list (the `key` array of each page), following every page. */
  all<T>(method: string, key: string, options?: RequestOptions): Promise<T[]> {
    return allPages<T>((m, cursor) => this.page(m, cursor, options), method, key);
  }
}
