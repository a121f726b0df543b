import { ErrorCode } from "../../../jsonrpc/errors.js";
import type { HttpExchange } from "../shared/exchange.js";
import type { SessionStore } from "./replication.js";
import { reply } from "./replies.js";
import type { HttpSessionTransport } from "./session-transport.js";

interface SessionEntry {
  transport: HttpSessionTransport;
  principal: string | undefined;
  lastUsed: number;
  /** When the shared store last heard the session was used here. */
  sharedAt: number;
}

/**
 * The sessions this process serves: who opened each, when it was last used, and the sweeper of
 * idle ones. With a shared store, they are this replica's part of the sessions it keeps: use here
 * keeps a session alive there, and one that ended there ends here.
 */
export class OpenSessions {
  private readonly entries = new Map<string, SessionEntry>();
  private sweeper: NodeJS.Timeout | undefined;

  constructor(
    /** A session unused this long ends, in ms. */
    private readonly idleTimeout: number,
    /** The most sessions open at once. */
    readonly maxSessions: number,
    private readonly shared?: SessionStore,
  ) {}

  /** The session, if this process serves it. */
  has(sessionId: string): boolean {
    return this.entries.has(sessionId);
  }

  /** Whether another session would be one too many. */
  get full(): boolean {
    return this.entries.size >= this.maxSessions;
  }

  get size(): number {
    return this.entries.size;
  }

  /** Keeps a new session, bound to whoever opened it (`undefined`: to no one). */
  add(sessionId: string, transport: HttpSessionTransport, principal: string | undefined): void {
    const now = Date.now();
    this.entries.set(sessionId, { transport, principal, lastUsed: now, sharedAt: now });
    this.startSweeper();
  }

  /** The request's session, or `undefined` after answering 400 (no id) or 404 (unknown, ended, or someone else's). */
  of(exchange: HttpExchange, principal: string | undefined): HttpSessionTransport | undefined {
    const sessionId = exchange.header("mcp-session-id");
    if (sessionId === undefined) {
      reply(exchange, 400, ErrorCode.ServerError, "Bad Request: Mcp-Session-Id header is required");
      return undefined;
    }
    const entry = this.entries.get(sessionId);
    if (
      !entry ||
      entry.transport.isClosed ||
      (entry.principal !== undefined && entry.principal !== principal)
    ) {
      reply(exchange, 404, ErrorCode.ServerError, "Session not found");
      return undefined;
    }
    entry.lastUsed = Date.now();
    this.share(sessionId, entry);
    return entry.transport;
  }

  /** Tells the shared store the session is in use, now and then, and ends it here if it ended there. */
  private share(sessionId: string, entry: SessionEntry): void {
    const shared = this.shared;
    if (!shared || entry.lastUsed - entry.sharedAt < shared.idleTimeout / 10) return;
    entry.sharedAt = entry.lastUsed;
    shared.touch(sessionId).then(
      (record) => {
        if (record || this.entries.get(sessionId) !== entry) return;
        this.entries.delete(sessionId);
        void entry.transport.close();
      },
      () => {},
    );
  }

  /** Forgets a session (DELETE); its transport is the caller's to close. */
  delete(sessionId: string): void {
    this.entries.delete(sessionId);
  }

  /** Ends every session. */
  async close(): Promise<void> {
    const entries = [...this.entries.values()];
    this.entries.clear();
    this.stopSweeper();
    await Promise.all(entries.map((entry) => entry.transport.close()));
  }

  private startSweeper(): void {
    if (this.sweeper) return;
    const idle = this.idleTimeout;
    this.sweeper = setInterval(() => this.sweep(Date.now() - idle), Math.max(10, Math.min(idle / 4, 60_000)));
    this.sweeper.unref();
  }

  private sweep(cutoff: number): void {
    for (const [id, entry] of this.entries) {
      if (entry.lastUsed >= cutoff) continue;
      // A request still being answered, or a client on a stream, is use too.
      if (entry.transport.busy) {
        entry.lastUsed = Date.now();
        this.share(id, entry);
        continue;
      }
      this.entries.delete(id);
      void entry.transport.close();
    }
    if (this.entries.size === 0) this.stopSweeper();
  }

  private stopSweeper(): void {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = undefined;
  }
}
