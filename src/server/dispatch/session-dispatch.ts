import { type MethodSelector, MiddlewareStack } from "../../util/middleware.js";
import { RequestContext } from "../sessions/context.js";
import type { ServerSession } from "../sessions/session.js";
import { checkScopes, type DispatchRow, notOffered } from "./dispatch.js";
import type { ServerMiddleware } from "./middleware.js";
import { type ServerStack, wrapNotifications, wrapRow } from "./middleware-install.js";
import type { StatelessServing } from "./stateless.js";

/**
 * A server's dispatch table as its sessions answer from it: the rows, with the middlewares
 * composed in once per change of the stack, installed as each session's request handlers.
 */
export class SessionDispatch {
  private readonly middleware: ServerStack = new MiddlewareStack();
  /** The rows sessions answer from: `rows` with the middlewares composed in. */
  private table: readonly DispatchRow[];

  constructor(
    /** One row per method the server answers, as registered. */
    private readonly rows: readonly DispatchRow[],
    private readonly stateless: StatelessServing,
  ) {
    this.table = rows;
  }

  /** Adds a middleware around the methods `methods` names, and installs it on the open sessions. */
  use(methods: MethodSelector | undefined, link: ServerMiddleware, sessions: Iterable<ServerSession>): void {
    this.middleware.add(methods, link);
    this.table = this.rows.map((entry) => wrapRow(entry, this.middleware));
    for (const session of sessions) this.install(session);
  }

  /** Answers a session's requests (and, with middleware, its notifications) from the table. */
  install(session: ServerSession): void {
    if (this.middleware.size > 0) wrapNotifications(session, this.middleware);
    const stateless = this.stateless;
    for (const entry of this.table) {
      session.peer.setRequestHandler(entry.method, (params, request) => {
        const ctx = new RequestContext(request, session);
        // The session admitted a stateless request with its sender's _meta.
        if (request.requestMeta !== undefined) return stateless.serve(entry, params, ctx);
        // A method of a capability the server did not declare is answered as unknown.
        if (entry.capability && !session.capabilities[entry.capability])
          throw notOffered(entry.method, entry.capability);
        if (entry.scopes) checkScopes(entry, params, ctx);
        return entry.handler(params, ctx);
      });
    }
  }
}
