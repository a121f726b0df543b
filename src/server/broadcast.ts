import type { LoggingLevel } from "../protocol/types/client-features.js";
import type { MessageBus } from "../transports/http/server/replication.js";

/** A server-wide notification one replica raised, for the sessions and listen streams of all. */
export type Broadcast =
  | { kind: "updated"; uri: string }
  | { kind: "listChanged"; lists: ("tools" | "resources" | "prompts")[] }
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
