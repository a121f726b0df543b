import type { LoggingLevel } from "../../protocol/types/client-features.js";
import type { ServerSession } from "./session.js";
import type { MessageBus } from "./stores.js";
import type { Subscriptions } from "./subscriptions.js";

/** The lists of a server that tell clients when they change. */
export type ListKind = "tools" | "resources" | "prompts";

/** A server-wide notification one replica raised, for the sessions and listen streams of all. */
export type Broadcast =
  | { kind: "updated"; uri: string }
  | { kind: "listChanged"; lists: ListKind[] }
  | { kind: "log"; level: LoggingLevel; data: unknown; logger?: string };

const CHANNEL = "server";

/**
 * Carries a server's broadcasts between its replicas: each replica delivers them to the sessions
 * whose streams it holds, and to its own `subscriptions/listen` streams.
 */
export class Broadcasts {
  private stop: (() => void) | undefined;

  constructor(
    private readonly bus: MessageBus,
    private readonly deliver: (broadcast: Broadcast) => void,
  ) {}

  /** Delivers what other replicas raise, from now on. */
  async start(): Promise<void> {
    this.stop = await this.bus.subscribe(CHANNEL, (text) => {
      let received: { from: string; broadcast: Broadcast };
      try {
        received = JSON.parse(text) as { from: string; broadcast: Broadcast };
      } catch {
        return;
      }
      if (received.from !== this.bus.replicaId) this.deliver(received.broadcast);
    });
  }

  /** Tells the other replicas; one that cannot be reached misses it (as a client not listening would). */
  publish(broadcast: Broadcast): void {
    let text: string;
    try {
      text = JSON.stringify({ from: this.bus.replicaId, broadcast });
    } catch {
      // A log entry that cannot be serialized reaches this replica's sessions only.
      return;
    }
    this.bus.publish(CHANNEL, text).catch(() => {});
  }

  close(): void {
    this.stop?.();
    this.stop = undefined;
  }
}

/** Delivers a server-wide notification to this process's listen streams and sessions. */
export function deliver(
  broadcast: Broadcast,
  subscriptions: Subscriptions,
  sessions: Iterable<ServerSession>,
): void {
  if (broadcast.kind === "updated") subscriptions.resourceUpdated(broadcast.uri);
  if (broadcast.kind === "listChanged") for (const kind of broadcast.lists) subscriptions.listChanged(kind);
  for (const session of sessions) {
    if (!session.revision || !session.deliversBroadcasts) continue;
    if (broadcast.kind === "updated") {
      if (session.subscriptions.has(broadcast.uri))
        session.notify("notifications/resources/updated", { uri: broadcast.uri });
    } else if (broadcast.kind === "log") {
      session.log(broadcast.level, broadcast.data, broadcast.logger);
    } else {
      for (const kind of broadcast.lists)
        if (session.capabilities[kind]) session.notify(`notifications/${kind}/list_changed`);
    }
  }
}
