import type { Peer } from "../../protocol/engine/peer.js";
import { type ModernIdentity, withMeta } from "./stateless.js";

/** What a `subscriptions/listen` request opts in to (2026-07-28). */
export interface ListenFilter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
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

  /** Listens to these too (or, for `resourceSubscriptions`, to exactly these resources). */
  want(more: ListenFilter): void {
    const filter = { ...this.current?.filter, ...more };
    if (this.current && JSON.stringify(filter) === JSON.stringify(this.current.filter)) return;
    this.current?.controller.abort();
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
