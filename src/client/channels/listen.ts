import type { Peer } from "../../protocol/engine/peer.js";
import { type ModernIdentity, withMeta } from "./stateless.js";

/** What a `subscriptions/listen` request opts in to (2026-07-28). */
interface ListenFilter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
  /** Tasks whose status changes to hear of (`notifications/tasks`, SEP-2663). */
  taskIds?: string[];
}

/** A listen stream stays open as long as the connection (the longest timer Node allows). */
const LISTEN_TIMEOUT = 2 ** 31 - 1;

/**
 * The `subscriptions/listen` stream of a stateless connection: opened when something is first
 * wanted, reopened wider when more is, closed with the client. Its notifications arrive as the
 * client's ordinary events.
 */
export class ListenStream {
  private current: { filter: ListenFilter; controller: AbortController } | undefined;

  constructor(
    private readonly peer: Peer,
    private readonly identity: ModernIdentity,
  ) {}

  /** The resources listened to now. */
  get resources(): string[] {
    return this.current?.filter.resourceSubscriptions ?? [];
  }

  /** The tasks listened to now. */
  get tasks(): string[] {
    return this.current?.filter.taskIds ?? [];
  }

  /**
   * Listens to these too (or, for `resourceSubscriptions` and `taskIds`, to exactly these); a
   * stream left with nothing to listen to is closed.
   */
  want(more: ListenFilter): void {
    const filter: ListenFilter = { ...this.current?.filter, ...more };
    if (filter.taskIds?.length === 0) delete filter.taskIds;
    if (this.current && JSON.stringify(filter) === JSON.stringify(this.current.filter)) return;
    this.current?.controller.abort();
    if (Object.keys(filter).length === 0) {
      this.current = undefined;
      return;
    }
    const controller = new AbortController();
    this.current = { filter, controller };
    this.peer
      .request("subscriptions/listen", withMeta({ notifications: filter }, this.identity), {
        signal: controller.signal,
        timeout: LISTEN_TIMEOUT,
      })
      .catch(() => {
        // Ended by close or by a wider listen; the notifications are events, the result is nothing.
      });
  }

  close(): void {
    this.current?.controller.abort();
    this.current = undefined;
  }
}
