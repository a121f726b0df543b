import type { EventStore } from "./event-store.js";

/**
 * What the replicas of a server share to serve one session between them: a 2025-era session opened
 * on one replica is served by any, with no sticky sessions. `mcpkit/redis` makes one on Redis.
 */
export interface Replication {
  /** The sessions every replica can read. */
  readonly sessions: SessionStore;
  /** Carries messages between replicas. */
  readonly bus: MessageBus;
  /** Keeps SSE events, so a stream resumes on any replica. */
  readonly events: EventStore;
  /**
   * The secret every replica signs `requestState` with (2026-07-28 input rounds), so a round
   * started on one replica continues on another. All replicas must have the same.
   */
  readonly requestStateSecret?: string | Uint8Array;
}

/** A session as every replica sees it. */
export interface SessionRecord {
  /** Who opened it (`undefined`: bound to no one). */
  principal: string | undefined;
  /** The server's state of it (negotiated revision, client, log level, subscriptions), once saved. */
  state: Record<string, unknown> | undefined;
}

/**
 * The sessions shared by the replicas of a server. A session unused for the store's idle timeout
 * ends for all of them. Every method rejects (`mcpkit/server`'s `ReplicationUnavailableError`) when
 * the store cannot be reached.
 */
export interface SessionStore {
  /** Keeps a new session. */
  create(sessionId: string, principal: string | undefined): Promise<void>;
  /** The session, its idle timeout restarted; `undefined` if it is unknown or ended. */
  touch(sessionId: string): Promise<SessionRecord | undefined>;
  /** Saves the server's state of a session. */
  save(sessionId: string, state: Record<string, unknown>): Promise<void>;
  /** Ends a session for every replica. */
  delete(sessionId: string): Promise<void>;
  /** How long an unused session is kept, in ms. */
  readonly idleTimeout: number;
}

/**
 * Messages between the replicas of a server, by channel: each replica gets what any (itself
 * included) publishes on a channel it subscribed to.
 */
export interface MessageBus {
  /** This process's name among the replicas, unique to it. */
  readonly replicaId: string;
  /**
   * Sends a message to every subscriber of `channel`; resolves to how many it reached, if the bus
   * can tell. A replica that saves a session's state waits for that many, less itself, to take it.
   */
  publish(channel: string, message: string): Promise<number | undefined>;
  /** Receives the messages of `channel` from now on, once the returned promise resolves; its value unsubscribes. */
  subscribe(channel: string, listener: (message: string) => void): Promise<() => void>;
}
