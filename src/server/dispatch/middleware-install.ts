import type { JSONRPCMessage, JSONRPCNotification, JSONRPCRequest } from "../../jsonrpc/messages.js";
import type { NotificationHandler } from "../../protocol/engine/peer.js";
import type { ProtocolEra } from "../../protocol/eras/era.js";
import { legacy } from "../../protocol/eras/legacy.js";
import { modern } from "../../protocol/eras/modern.js";
import { type Chain, compose, type MiddlewareStack } from "../../util/middleware.js";
import type { RequestContext } from "../sessions/context.js";
import type { ServerSession } from "../sessions/session.js";
import type { DispatchRow } from "./dispatch.js";
import {
  CLIENT_NOTIFICATIONS,
  type ServerMiddlewareContext as Context,
  ServerMiddlewareContext,
} from "./middleware.js";

/** A middleware stack of a server: the incoming one, or the outgoing one. */
export type ServerStack = MiddlewareStack<Context, object | undefined>;

/** The era a request was admitted in, as the object that knows its rules. */
const eraOf = (request: RequestContext): ProtocolEra => (request.request.requestMeta ? modern : legacy);

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
    const request = ctx.request!;
    const era = eraOf(request);
    try {
      const result = handler(ctx.params, request);
      return result instanceof Promise ? result.catch((error) => rethrow(era, error)) : result;
    } catch (error) {
      return rethrow(era, error);
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

function rethrow(era: ProtocolEra, error: unknown): never {
  throw era.mapError(error);
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

/** The message being sent and how to send it, for the chain's innermost step. */
interface Sending {
  readonly message: JSONRPCRequest | JSONRPCNotification;
  readonly params: Record<string, unknown>;
  readonly proceed: (message: JSONRPCMessage) => void;
}

const sending = new WeakMap<Context, Sending>();

/** The innermost step of an outgoing chain: sends the message with the params the chain left. */
function send(ctx: Context): undefined {
  const { message, params, proceed } = sending.get(ctx)!;
  proceed(ctx.params === params ? message : { ...message, params: ctx.params });
  return undefined;
}

/**
 * Runs what a session sends (notifications, and requests to the client) through the outgoing
 * stack first; a session of a server without outgoing middleware sends as before.
 */
export function wrapOutgoing(session: ServerSession, stack: ServerStack): void {
  const peer = session.peer;
  if (stack.size === 0) {
    peer.beforeSend = undefined;
    return;
  }
  /** The chains of the methods sent so far, composed on first use (`null`: no middleware applies). */
  const chains = new Map<string, Chain<Context, object | undefined> | null>();
  peer.beforeSend = (message, proceed) => {
    let chain = chains.get(message.method);
    if (chain === undefined) {
      const links = stack.linksFor(message.method);
      chain = links.length === 0 ? null : compose(links, send);
      // Bounded like the stack's own cache, whatever a handler names.
      if (chains.size < 256) chains.set(message.method, chain);
    }
    if (chain === null) {
      proceed(message);
      return undefined;
    }
    const params = (message.params ?? {}) as Record<string, unknown>;
    const ctx = new ServerMiddlewareContext("outgoing", message.method, params, session, undefined);
    sending.set(ctx, { message, params, proceed });
    return chain(ctx).then(() => undefined);
  };
}
