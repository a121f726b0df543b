import { type MethodSelector, MiddlewareStack } from "../../util/middleware.js";
import { RequestContext } from "../sessions/context.js";
import type { ServerSession } from "../sessions/session.js";
import { checkScopes, type DispatchRow, notOffered } from "./dispatch.js";
import type { ServerMiddleware } from "./middleware.js";
import { type ServerStack, wrapNotifications, wrapOutgoing, wrapRow } from "./middleware-install.js";
import { type MiddlewareDeclaration, placeRank } from "./order.js";
import type { StatelessServing } from "./stateless.js";

/**
 * A server's dispatch table as its sessions answer from it: the rows, with the middlewares
 * composed in once per change of the stack, installed as each session's request handlers; and
 * the outgoing middlewares, installed before each session's sending.
 */
export class SessionDispatch {
  /** Around the requests and notifications the server handles, ranked by `MIDDLEWARE_ORDER`. */
  private readonly middleware: ServerStack = new MiddlewareStack();
  /** Before the notifications and requests the server sends. */
  private readonly outgoing: ServerStack = new MiddlewareStack();
  /** The rows sessions answer from: `rows` with the middlewares composed in. */
  private table: readonly DispatchRow[];

  constructor(
    /** One row per method the server answers, as registered. */
    private readonly rows: readonly DispatchRow[],
    private readonly stateless: StatelessServing,
  ) {
    this.table = rows;
  }

  /**
   * Adds a middleware for the methods `methods` names, at the place and in the directions it
   * declares (or `declared` says), and installs it on the open sessions.
   */
  use(
    methods: MethodSelector | undefined,
    link: ServerMiddleware,
    sessions: Iterable<ServerSession>,
    declared: MiddlewareDeclaration | undefined = link,
  ): void {
    const rank = placeRank(declared?.place);
    const directions = declared?.directions ?? ["incoming", "outgoing"];
    if (directions.includes("incoming")) {
      this.middleware.add(methods, link, rank);
      this.table = this.rows.map((entry) => wrapRow(entry, this.middleware));
    }
    if (directions.includes("outgoing")) this.outgoing.add(methods, link, rank);
    for (const session of sessions) this.install(session);
  }

  /** Answers a session's requests (and, with middleware, its notifications) from the table. */
  install(session: ServerSession): void {
    if (this.middleware.size > 0) wrapNotifications(session, this.middleware);
    if (this.outgoing.size > 0) wrapOutgoing(session, this.outgoing);
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
