import { ErrorCode, McpError } from "../jsonrpc/errors.js";
import { fixedJson } from "../jsonrpc/fixed-json.js";
import { META } from "../protocol/eras/request-meta.js";
import type { Implementation } from "../protocol/types/base.js";
import { extend } from "../util/extend.js";
import type { RequestContext } from "./context.js";
import { InputRound } from "./input-round.js";
import type { RequestStateSigner } from "./request-state.js";

/** How long, and for whom, a client or intermediary may cache a result (SEP-2549). */
export interface CacheHint {
  ttlMs: number;
  cacheScope: "public" | "private";
}

/** Results that carry caching hints in 2026-07-28. */
const CACHEABLE = new Set([
  "server/discover",
  "tools/list",
  "prompts/list",
  "resources/list",
  "resources/templates/list",
  "resources/read",
]);

/** Requests whose handlers may ask the client for input (multi round-trip). */
const ASKING: Record<string, (params: Record<string, unknown>) => unknown> = {
  "tools/call": (params) => params.name,
  "prompts/get": (params) => params.name,
  "resources/read": (params) => params.uri,
};

/** A stateless result: `resultType`, the server's identity in `_meta`, caching hints where due. */
export function modernResult(
  method: string,
  result: object,
  serverMeta: Readonly<Record<string, unknown>>,
  cache: CacheHint,
): object {
  const given = result as Record<string, unknown>;
  const own = given._meta as object | undefined;
  const decorated: Record<string, unknown> = extend(given, {
    resultType: given.resultType ?? "complete",
    // Most results carry no _meta of their own: they share the server's.
    _meta: own === undefined ? serverMeta : extend(own, serverMeta),
  });
  if (CACHEABLE.has(method) && decorated.resultType === "complete") {
    decorated.ttlMs ??= cache.ttlMs;
    decorated.cacheScope ??= cache.cacheScope;
  }
  return decorated;
}

/** The `_meta` a server adds to every stateless result: its identity, serialized once. */
export function serverMetaOf(serverInfo: Implementation): Readonly<Record<string, unknown>> {
  return fixedJson({ [META.serverInfo]: serverInfo });
}

/** Errors whose code changed in 2026-07-28: a missing resource is invalid params there. */
export function modernError(error: unknown): unknown {
  if (error instanceof McpError && error.code === ErrorCode.ResourceNotFound) {
    return new McpError(ErrorCode.InvalidParams, error.message, error.data);
  }
  return error;
}

/**
 * Lets a handler ask for input: its request then ends with an `InputRequiredResult` (through
 * `finish`, which decorates it) as soon as the handler waits for answers the client has not given
 * yet, while the handler itself never returns. Requests that cannot ask are left alone.
 */
export function openInputRounds(
  method: string,
  params: Record<string, unknown>,
  ctx: RequestContext,
  signer: RequestStateSigner,
  finish: (result: object) => object,
): void {
  const target = ASKING[method];
  if (!target) return;
  // The round (and the requestState check) exists only once the handler asks something.
  let round: InputRound | undefined;
  ctx.round = () => {
    round ??= new InputRound(params, `${method} ${String(target(params))}`, signer, () => {
      try {
        ctx.request.answer(finish(round!.result()));
      } catch (error) {
        ctx.request.answer(undefined, modernError(error));
      }
    });
    return round;
  };
}
