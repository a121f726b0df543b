import { type Broadcast, Broadcasts, deliver, type ListKind } from "./broadcast.js";
import type { ServerSession } from "./session.js";
import type { MessageBus } from "./stores.js";
import type { Subscriptions } from "./subscriptions.js";

/**
 * Everyone a server's server-wide notifications reach: its open sessions and its
 * `subscriptions/listen` streams, here and (once it serves as one of several replicas) on every
 * replica. Changes of a list made in one tick are told once.
 */
export class Sessions implements Iterable<ServerSession> {
  private readonly open = new Set<ServerSession>();
  private readonly changed = new Set<ListKind>();
  /** The other replicas' server-wide notifications, when serving as one of several. */
  private broadcasts: Broadcasts | undefined;

  constructor(
    /** The listen streams (2026-07-28). */
    readonly subscriptions: Subscriptions,
  ) {}

  [Symbol.iterator](): Iterator<ServerSession> {
    return this.open.values();
  }

  add(session: ServerSession): void {
    this.open.add(session);
  }

  /** Forgets a session that ended. */
  delete(session: ServerSession): void {
    this.open.delete(session);
  }

  /** Tells every session and listen stream, on every replica. */
  raise(broadcast: Broadcast): void {
    this.deliver(broadcast);
    this.broadcasts?.publish(broadcast);
  }

  /** Coalesces changes made in one tick into one notification per list per session. */
  listChanged(kind: ListKind): void {
    if ((this.open.size === 0 && !this.broadcasts) || this.changed.has(kind)) return;
    this.changed.add(kind);
    if (this.changed.size > 1) return;
    queueMicrotask(() => {
      const broadcast: Broadcast = { kind: "listChanged", lists: [...this.changed] };
      this.changed.clear();
      this.raise(broadcast);
    });
  }

  /** From now on, what one replica raises on `bus` reaches the sessions and streams of all. */
  async replicate(bus: MessageBus): Promise<void> {
    if (this.broadcasts) return;
    this.broadcasts = new Broadcasts(bus, (broadcast) => this.deliver(broadcast));
    await this.broadcasts.start();
  }

  /** Leaves the other replicas and ends every session. */
  async close(): Promise<void> {
    this.broadcasts?.close();
    this.broadcasts = undefined;
    await Promise.all([...this.open].map((session) => session.close()));
  }

  /** Delivers a server-wide notification to this process's listen streams and sessions. */
  private deliver(broadcast: Broadcast): void {
    deliver(broadcast, this.subscriptions, this.open);
  }
}
