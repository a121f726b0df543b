import { ErrorCode, McpError } from "../../jsonrpc/errors.js";
import { principalOf } from "../../transports/http/shared/authenticate.js";
import type { RequestContext } from "../sessions/context.js";
import type { ServerMiddleware } from "./middleware.js";

/** A token bucket: `capacity` calls at once, refilled at `refillPerSecond`. */
export interface RateLimitRule {
  capacity: number;
  refillPerSecond: number;
}

/**
 * Rate limits on tool calls, per caller and per tool (token buckets, in memory). A call over its
 * limit is refused with a JSON-RPC error whose `data.retryAfterMs` says when to try again.
 */
export interface RateLimitOptions extends RateLimitRule {
  /** Rules of particular tools, in place of the default one. */
  tools?: Record<string, RateLimitRule>;
  /**
   * Who a call counts against. Default: the verified caller (`ctx.auth`, over HTTP with `auth`),
   * else its session (a stateless request's client name over HTTP, where requests share no session).
   */
  key?: (ctx: RequestContext) => string;
  /** How many callers' buckets are kept; the least recently used go first. Default 10,000. */
  maxKeys?: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

const sessionIds = new WeakMap<object, number>();
let nextSessionId = 0;

/**
 * A caller's default key: who its token says it is, wherever it calls from; without one its
 * session, and for stateless requests the client's name too.
 */
function defaultKey(ctx: RequestContext): string {
  if (ctx.auth) return `auth:${principalOf(ctx.auth)}`;
  let id = sessionIds.get(ctx.session);
  if (id === undefined) {
    id = ++nextSessionId;
    sessionIds.set(ctx.session, id);
  }
  return ctx.request.requestMeta ? `${id}:${ctx.clientInfo?.name ?? ""}` : String(id);
}

/** The buckets of a server's rate limits. */
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(private readonly options: RateLimitOptions) {}

  /** Takes one call of `tool` for the caller, or throws the error saying when to retry. */
  take(tool: string, ctx: RequestContext): void {
    const rule = this.options.tools?.[tool] ?? this.options;
    const key = `${(this.options.key ?? defaultKey)(ctx)}\0${tool}`;
    const now = Date.now();
    const found = this.buckets.get(key);
    const bucket = found ?? { tokens: rule.capacity, at: now };
    bucket.tokens = Math.min(
      rule.capacity,
      bucket.tokens + ((now - bucket.at) / 1000) * rule.refillPerSecond,
    );
    bucket.at = now;
    // Re-inserted, so the map's order is least recently used first.
    this.buckets.delete(key);
    this.buckets.set(key, bucket);
    if (!found && this.buckets.size > (this.options.maxKeys ?? 10_000)) {
      this.buckets.delete(this.buckets.keys().next().value!);
    }
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return;
    }
    const retryAfterMs = Math.ceil(((1 - bucket.tokens) / rule.refillPerSecond) * 1000);
    throw new McpError(
      ErrorCode.ServerError,
      `Rate limit exceeded: tool ${tool} allows ${rule.capacity} calls at once and ${rule.refillPerSecond} per second; retry in ${retryAfterMs} ms`,
      { retryAfterMs },
    );
  }
}

/**
 * The rate limits as a `tools/call` middleware: a call of a registered tool takes one token before
 * it runs (an unknown tool is refused by the registry without taking any).
 */
export function rateLimitMiddleware(
  limiter: RateLimiter,
  registered: (tool: string) => boolean,
): ServerMiddleware<"tools/call"> {
  return (ctx, next) => {
    const name = ctx.params.name;
    if (typeof name === "string" && registered(name)) limiter.take(name, ctx.request!);
    return next();
  };
}
