import type { NotificationHandler } from "../../protocol/engine/peer.js";
import { modern } from "../../protocol/eras/modern.js";
import { compose, type MiddlewareStack } from "../../util/middleware.js";
import type { ServerSession } from "../sessions/session.js";
import type { DispatchRow } from "./dispatch.js";
import {
  CLIENT_NOTIFICATIONS,
  type ServerMiddlewareContext as Context,
  ServerMiddlewareContext,
} from "./middleware.js";

/** The middleware stack of a server. */
export type ServerStack = MiddlewareStack<Context, object | undefined>;

/**
 * The dispatch row with the middlewares that apply to its method composed around its handler;
 * the row itself when none do, so a server without middleware answers exactly as before.
 */
export function wrapRow(entry: DispatchRow, stack: ServerStack): DispatchRow {
  const links = stack.linksFor(entry.method);
  if (links.length === 0) return entry;
  const handler = entry.handler;
  // Middleware sees errors as they are answered: a stateless request's in the era's codes.
  const run = compose(links, (ctx) => {
    if (ctx.era === "legacy") return handler(ctx.params, ctx.request!);
    try {
      const result = handler(ctx.params, ctx.request!);
      return result instanceof Promise ? result.catch(rethrowModern) : result;
    } catch (error) {
      return rethrowModern(error);
    }
  });
  return {
    ...entry,
    handler: (params, request) =>
      run(
        new ServerMiddlewareContext("request", entry.method, params, request.session, request),
      ) as Promise<object>,
  };
}

function rethrowModern(error: unknown): never {
  throw modern.mapError(error);
}

/** The handlers a session had before middleware wrapped them. */
const originals = new WeakMap<ServerSession, Map<string, NotificationHandler | undefined>>();

/** Wraps (or, after a change of the stack, wraps again) the client notifications a session hears. */
export function wrapNotifications(session: ServerSession, stack: ServerStack): void {
  const peer = session.peer;
  let own = originals.get(session);
  if (!own) {
    own = new Map(CLIENT_NOTIFICATIONS.map((method) => [method, peer.notificationHandler(method)]));
    originals.set(session, own);
  }
  for (const [method, handler] of own) {
    const links = stack.linksFor(method);
    if (links.length === 0) {
      if (handler) peer.setNotificationHandler(method, handler);
      continue;
    }
    const run = compose(links, (ctx) => {
      handler?.(ctx.params);
      return undefined;
    });
    peer.setNotificationHandler(method, (params) => {
      // Nobody waits on a notification: what a middleware throws is reported as the peer's error.
      run(new ServerMiddlewareContext("notification", method, params, session, undefined)).catch((error) =>
        peer.onerror(error as Error),
      );
    });
  }
}
