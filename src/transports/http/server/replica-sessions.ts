import { ErrorCode } from "../../../jsonrpc/errors.js";
import type { RequestId } from "../../../jsonrpc/messages.js";
import type { ConnectSession, HttpExchange } from "../shared/exchange.js";
import type { Replication, SessionRecord } from "./replication.js";
import { reply } from "./replies.js";
import type { OpenSessions } from "./session-store.js";
import { HttpSessionTransport } from "./session-transport.js";
import type { StreamOptions } from "./stream.js";

/**
 * The sessions of an endpoint served by several replicas: each is opened, joined and ended in the
 * shared stores, so any replica serves any of its requests. A store that cannot be reached is
 * answered 503.
 */
export class ReplicaSessions {
  /** Sessions other replicas opened, being joined by this one. */
  private readonly joining = new Map<string, Promise<void>>();

  constructor(
    private readonly replication: Replication,
    private readonly sessions: OpenSessions,
    private readonly connect: ConnectSession,
    private readonly streamOptions: (sessionId: string) => StreamOptions,
  ) {}

  /** The transport of a new session, kept in the shared store; `undefined` after answering 503. */
  async create(
    exchange: HttpExchange,
    sessionId: string,
    principal: string | undefined,
    id: RequestId | undefined,
  ): Promise<HttpSessionTransport | undefined> {
    const replication = this.replication;
    const transport = new HttpSessionTransport(sessionId, this.streamOptions(sessionId), replication);
    try {
      await replication.sessions.create(sessionId, principal);
      await transport.link!.start();
    } catch (error) {
      transport.link!.close();
      unavailable(exchange, error, id);
      return undefined;
    }
    return transport;
  }

  /**
   * Serves here, if it is still open, a session another replica opened: its state is read from the
   * store. `false` after answering 503.
   */
  async join(exchange: HttpExchange, sessionId: string, id: RequestId | undefined): Promise<boolean> {
    try {
      await this.joined(sessionId);
      return true;
    } catch (error) {
      unavailable(exchange, error, id);
      return false;
    }
  }

  /** Ends a session for every replica; `false` after answering 503. */
  async end(exchange: HttpExchange, transport: HttpSessionTransport): Promise<boolean> {
    try {
      await this.replication.sessions.delete(transport.sessionId!);
      await transport.link!.endEverywhere();
      return true;
    } catch (error) {
      unavailable(exchange, error);
      return false;
    }
  }

  private joined(sessionId: string): Promise<void> {
    let joining = this.joining.get(sessionId);
    if (joining) return joining;
    const replication = this.replication;
    joining = (async () => {
      // An unknown id costs one read, not a subscription.
      if (!(await replication.sessions.touch(sessionId)) || this.sessions.full) return;
      const transport = new HttpSessionTransport(sessionId, this.streamOptions(sessionId), replication);
      const link = transport.link!;
      // Read again once listening: a state saved meanwhile is then either read or heard.
      let record: SessionRecord | undefined;
      try {
        await link.start();
        record = await replication.sessions.touch(sessionId);
      } catch (error) {
        link.close();
        throw error;
      }
      if (!record || this.sessions.has(sessionId) || this.sessions.full) {
        link.close();
        return;
      }
      link.adopt(record.state);
      this.sessions.add(sessionId, transport, record.principal);
      await this.connect(transport, {});
    })().finally(() => this.joining.delete(sessionId));
    this.joining.set(sessionId, joining);
    return joining;
  }
}

/** Answers a request that needs the shared stores while they cannot be reached. */
function unavailable(exchange: HttpExchange, error: unknown, id?: RequestId): void {
  const why = `Service Unavailable: the shared session store cannot be reached (${(error as Error).message}); retry shortly`;
  reply(exchange, 503, ErrorCode.ServerError, why, { "retry-after": "1" }, id);
}
