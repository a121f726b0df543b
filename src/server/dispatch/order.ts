/**
 * The one order in which whatever wraps a server's requests runs, written once as data: the
 * server's middleware stack ranks each middleware by its place here, so the order does not depend
 * on which `use` call came first.
 */

/**
 * The places a middleware may run at, outermost first; the handler is inside the last.
 *
 * - `tracing`: sees every request as the client sent it and how it was answered, refusals
 *   included (`otelServer()`).
 * - `auth`: who may call at all, and how often (`rateLimit`).
 * - `policy`: what a caller may do with a given tool and its arguments (the gateway's access rules
 *   and policy).
 * - `audit`: a record of each call that got past the policy (the gateway's audit log; a refusal of
 *   the policy is recorded by the policy step through the same log).
 * - `extensions`: the extensions' middleware, in the order the extensions are given (the tasks
 *   extension answers a task-augmented `tools/call` here and runs the rest of the chain as the
 *   task).
 * - `use`: `server.use(…)` without a declared place. Inside the extensions, so that what it does
 *   to a `tools/call` happens to the tool's own result whichever way it reaches the client: inline,
 *   or as a task's result (`tasks/result` of 2025-11-25, `tasks/get` of 2026-07-28, a status
 *   notification). A check that must refuse the call itself, before a task is created, belongs at
 *   `auth` or `policy` (see `placed`).
 */
export const MIDDLEWARE_ORDER = ["tracing", "auth", "policy", "audit", "extensions", "use"] as const;

/** One place of `MIDDLEWARE_ORDER`. */
export type MiddlewarePlace = (typeof MIDDLEWARE_ORDER)[number];

/**
 * Which messages a middleware sees: `incoming`, the requests and notifications the server
 * handles; `outgoing`, the notifications and requests it sends the client (progress, log
 * messages, `list_changed`, sampling, elicitation, `roots/list`), before they are sent.
 */
export type MiddlewareDirection = "incoming" | "outgoing";

/** What a middleware may declare of itself, as properties of the function. */
export interface MiddlewareDeclaration {
  /** Where it runs; default `use`. */
  readonly place?: MiddlewarePlace;
  /** What it sees; default both directions. */
  readonly directions?: readonly MiddlewareDirection[];
}

/** The rank of a place in the stack: lower runs outer. */
export function placeRank(place: MiddlewarePlace | undefined): number {
  const rank = MIDDLEWARE_ORDER.indexOf(place ?? "use");
  if (rank < 0)
    throw new TypeError(
      `No middleware place ${JSON.stringify(place)}: one of ${MIDDLEWARE_ORDER.join(", ")}`,
    );
  return rank;
}

/**
 * Declares where `middleware` runs and what it sees, and returns it.
 *
 * @example
 * server.use("tools/call", placed("auth", (ctx, next) => {
 *   if (!ctx.auth) throw new McpError(ErrorCode.InvalidRequest, "Sign in first");
 *   return next();
 * }));
 */
export function placed<F extends (...args: never[]) => unknown>(
  place: MiddlewarePlace,
  middleware: F,
  directions?: readonly MiddlewareDirection[],
): F & MiddlewareDeclaration {
  placeRank(place);
  return Object.assign(middleware, directions ? { place, directions } : { place });
}
