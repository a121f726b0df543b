import { ErrorCode, McpError } from "../jsonrpc/errors.js";
import { META } from "../protocol/modern.js";
import type { Implementation } from "../protocol/types/base.js";
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
  serverInfo: Implementation,
  cache: CacheHint,
): object {
  const given = result as Record<string, unknown>;
  const decorated: Record<string, unknown> = {
    ...given,
    resultType: given.resultType ?? "complete",
    _meta: { ...(given._meta as object | undefined), [META.serverInfo]: serverInfo },
  };
  if (CACHEABLE.has(method) && decorated.resultType === "complete") {
    decorated.ttlMs ??= cache.ttlMs;
    decorated.cacheScope ??= cache.cacheScope;
  }
  return decorated;
}

/** Errors whose code changed in 2026-07-28: a missing resource is invalid params there. */
export function modernError(error: unknown): unknown {
  if (error instanceof McpError && error.code === ErrorCode.ResourceNotFound) {
    return new McpError(ErrorCode.InvalidParams, error.message, error.data);
  }
  return error;
}

/**
 * Runs a handler that may ask for input: it ends with its result, or with an `InputRequiredResult`
 * once it waits for answers the client has not given yet.
 */
export function withInputRound(
  method: string,
  params: Record<string, unknown>,
  ctx: RequestContext,
  signer: RequestStateSigner,
  run: () => Promise<object>,
): Promise<object> {
  const target = ASKING[method];
  if (!target) return run();
  return new Promise((resolve, reject) => {
    // The round (and the requestState check) exists only once the handler asks something.
    let round: InputRound | undefined;
    ctx.round = () => {
      round ??= new InputRound(params, `${method} ${String(target(params))}`, signer, () =>
        resolve(round!.result()),
      );
      return round;
    };
    run().then(resolve, reject);
  });
}
