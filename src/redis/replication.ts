import { randomBytes } from "node:crypto";
import type { Replication } from "../server/sessions/stores.js";
import { RedisMessageBus } from "./bus.js";
import { RedisConnection, type RedisConnectionOptions } from "./connection.js";
import { RedisEventStore } from "./event-store.js";
import { ReplicaLease } from "./lease.js";
import { RedisSessionStore } from "./session-store.js";
import { RedisTaskStore, type RedisTaskStoreOptions } from "./task-store.js";

/** Options of `redisReplication`. */
export interface RedisReplicationOptions extends RedisConnectionOptions {
  /** Put before every key and channel, so several servers share one Redis. Default `mcpkit:`. */
  keyPrefix?: string;
  /** A session unused this long ends on every replica, in ms. Default 30 minutes. */
  sessionIdleTimeout?: number;
  /** How long a stream's events are kept after its last one, in ms. Default 10 minutes. */
  eventTtl?: number;
  /** About how many events a stream keeps for resumption (older ones are trimmed). Default 1000. */
  maxEventsPerStream?: number;
  /**
   * The secret every replica signs 2026-07-28 `requestState` with; all replicas must have the same.
   * Unset, the first replica to start stores a random one in Redis and the others read it (anyone
   * who can read Redis can then forge request state: give one in production).
   */
  requestStateSecret?: string;
  /**
   * How often each replica renews its liveness lease in Redis, in ms. Default 1 s.
   */
  leaseInterval?: number;
  /**
   * How long a replica's liveness lease lasts unrenewed, in ms: this long after a replica died (was
   * killed, lost its machine), the others end what it left unfinished with a clear error — a
   * stream resumed from it, a task it ran. Longer than `leaseInterval`. Default 5 s.
   */
  leaseTtl?: number;
}

/** The shared stores on Redis, and the connections they use. */
export interface RedisReplication extends Replication {
  /**
   * A task store on the same connection, for the tasks extension (`tasks({ store })`), so any
   * replica answers for a task another one runs. A task whose replica dies (its liveness lease
   * lapses) is marked `failed` by the next replica asked about it, with a status message saying
   * its replica died, so `tasks/get` pollers and `tasks/result` settle; it is not run again.
   */
  taskStore(options?: RedisTaskStoreOptions): RedisTaskStore;
  /** Closes both connections to Redis. */
  close(): Promise<void>;
}

/**
 * Connects to Redis and makes the stores that let several replicas of a server serve the same
 * sessions: pass it as `serveHttp`'s `replication` (or `server.fetch`'s `http.replication`) in
 * each replica. Rejects with a `ReplicationUnavailableError` if Redis cannot be reached.
 *
 * @example
 * import { redisReplication } from "mcpkit/redis";
 * const replication = await redisReplication({ url: "redis://127.0.0.1:6379" });
 * await server.serveHttp({ port: 3000, replication });
 */
export async function redisReplication(options: RedisReplicationOptions): Promise<RedisReplication> {
  const prefix = options.keyPrefix ?? "mcpkit:";
  const interval = options.leaseInterval ?? 1000;
  const ttl = options.leaseTtl ?? 5000;
  if (!Number.isInteger(interval) || interval < 1 || !Number.isInteger(ttl) || ttl <= interval)
    throw new TypeError(
      `leaseInterval and leaseTtl must be positive integers (ms), leaseTtl the longer; got ${interval} and ${ttl}`,
    );
  const redis = await RedisConnection.open(options);
  const bus = new RedisMessageBus(redis, prefix);
  const lease = new ReplicaLease(redis, prefix, bus.replicaId, { interval, ttl });
  try {
    const requestStateSecret = options.requestStateSecret ?? (await sharedSecret(redis, prefix));
    await lease.start();
    return {
      sessions: new RedisSessionStore(redis, prefix, options.sessionIdleTimeout ?? 30 * 60_000),
      bus,
      events: new RedisEventStore(
        redis,
        prefix,
        options.eventTtl ?? 10 * 60_000,
        options.maxEventsPerStream ?? 1000,
        lease,
      ),
      requestStateSecret,
      taskStore: (taskOptions) => new RedisTaskStore(redis, prefix, taskOptions, lease),
      close: async () => {
        await lease.close();
        await redis.close();
      },
    };
  } catch (error) {
    await lease.close();
    await redis.close();
    throw error;
  }
}

/** The secret the first replica stored, or one stored now. */
async function sharedSecret(redis: RedisConnection, prefix: string): Promise<string> {
  const key = `${prefix}request-state-secret`;
  await redis.command(["SET", key, randomBytes(32).toString("base64url"), "NX"]);
  return (await redis.command<string>(["GET", key]))!;
}
