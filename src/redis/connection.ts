import { ReplicationUnavailableError } from "../server/sessions/stores.js";
import { importPeer } from "../util/optional-peer.js";

// `@redis/client` is an optional peer: without it, importing mcpkit/redis says which package to install.
const { createClient } = await importPeer("@redis/client", "mcpkit/redis", () => import("@redis/client"));

/** How `mcpkit/redis` connects. */
export interface RedisConnectionOptions {
  /** `redis://[user:password@]host:port[/db]` or `rediss://…` (TLS). */
  url: string;
  /** How long the first connection may take, in ms, before the stores fail to open. Default 5 s. */
  connectTimeout?: number;
  /** The longest wait between attempts to reconnect a lost connection, in ms. Default 5 s. */
  maxReconnectDelay?: number;
  /** The most commands waiting for their replies at once; one more fails. Default 10,000. */
  maxPendingCommands?: number;
  /**
   * How long a command or subscription may wait for Redis's answer, in ms, before it fails with a
   * `ReplicationUnavailableError` (a request that needs it is answered 503). Past it, Redis is
   * taken as stalled (stopped, overloaded): commands fail at once until it answers again, which
   * the connection notices by itself. Default 3 s.
   */
  commandTimeout?: number;
}

/** Why a command was given up: Redis did not answer in time. */
const TIMED_OUT = Symbol("timed out");

/** A client of its own kind: RESP2 replies (arrays), nothing queued while disconnected, a bounded backoff. */
function makeClient(options: RedisConnectionOptions, connected: () => boolean) {
  const maxDelay = options.maxReconnectDelay ?? 5000;
  return createClient({
    url: options.url,
    RESP: 2,
    disableOfflineQueue: true,
    commandsQueueMaxLength: options.maxPendingCommands ?? 10_000,
    socket: {
      connectTimeout: options.connectTimeout ?? 5000,
      reconnectStrategy: (retries: number, cause: Error) => {
        // The first connection fails fast: a replica that cannot reach Redis should not start.
        if (!connected()) return retries >= 2 ? cause : 100;
        return Math.min(100 * 2 ** retries, maxDelay) * (0.5 + Math.random() / 2);
      },
    },
  });
}

type Client = ReturnType<typeof makeClient>;

/**
 * The two connections a process keeps to Redis: one for commands, one for subscriptions. A lost
 * connection is retried with a bounded backoff, forever; meanwhile commands fail at once (nothing
 * queues), and subscriptions come back with it.
 */
export class RedisConnection {
  private readonly listeners = new Map<string, Set<(message: string) => void>>();
  private lastError: Error | undefined;
  /** Redis left a command unanswered past the deadline, and has not answered since. */
  private stalled = false;

  private constructor(
    private readonly commands: Client,
    private readonly subscriber: Client,
    private readonly commandTimeout: number,
  ) {}

  /** Connects both; rejects, naming the URL's host, if Redis cannot be reached. */
  static async open(options: RedisConnectionOptions): Promise<RedisConnection> {
    const where = describe(options.url);
    const commandTimeout = options.commandTimeout ?? 3000;
    if (!Number.isInteger(commandTimeout) || commandTimeout < 1)
      throw new TypeError(`commandTimeout must be a positive integer (ms); got ${commandTimeout}`);
    let connected = false;
    const commands = makeClient(options, () => connected);
    const subscriber = makeClient(options, () => connected);
    const connection = new RedisConnection(commands, subscriber, commandTimeout);
    for (const client of [commands, subscriber]) {
      client.on("error", (error: Error) => {
        connection.lastError = error;
      });
    }
    try {
      await Promise.all([commands.connect(), subscriber.connect()]);
    } catch (error) {
      await Promise.allSettled([commands.destroy(), subscriber.destroy()]);
      throw new ReplicationUnavailableError(
        `cannot connect to Redis at ${where}: ${(error as Error).message || String(error)}`,
      );
    }
    connected = true;
    return connection;
  }

  /**
   * Sends one command; rejects with a `ReplicationUnavailableError` while Redis cannot be reached
   * or has not answered within `commandTimeout`.
   */
  async command<T = unknown>(args: string[]): Promise<T> {
    if (!this.commands.isReady) throw this.unavailable();
    if (this.stalled) throw this.unanswered();
    try {
      return (await this.deadline(this.commands.sendCommand(args))) as T;
    } catch (error) {
      if (error === TIMED_OUT) throw this.stall();
      if (!this.commands.isReady) throw this.unavailable(error);
      throw error;
    }
  }

  /** Receives what is published on `channel` until the returned function is called. */
  async subscribe(channel: string, listener: (message: string) => void): Promise<() => void> {
    let set = this.listeners.get(channel);
    if (!set) {
      if (this.stalled) throw this.unanswered();
      set = new Set();
      this.listeners.set(channel, set);
      const all = set;
      const deliver = (message: string) => {
        for (const each of all) each(message);
      };
      const subscribed = this.subscriber.subscribe(channel, deliver);
      try {
        await this.deadline(subscribed);
      } catch (error) {
        if (this.listeners.get(channel) === all) this.listeners.delete(channel);
        if (error === TIMED_OUT) {
          // Should Redis answer later, the subscription nobody waits for any more is dropped.
          subscribed.then(() => this.subscriber.unsubscribe(channel, deliver)).catch(() => {});
          throw this.stall();
        }
        throw this.subscriber.isReady ? error : this.unavailable(error);
      }
    }
    set.add(listener);
    return () => {
      const current = this.listeners.get(channel);
      if (!current?.delete(listener) || current.size > 0) return;
      this.listeners.delete(channel);
      if (this.subscriber.isReady) this.subscriber.unsubscribe(channel).catch(() => {});
    };
  }

  /** Whether both connections are up. */
  get ready(): boolean {
    return this.commands.isReady && this.subscriber.isReady;
  }

  async close(): Promise<void> {
    this.listeners.clear();
    await Promise.allSettled([this.commands.close(), this.subscriber.close()]);
  }

  /** `promise`, or a rejection with `TIMED_OUT` once `commandTimeout` has passed. */
  private deadline<T>(promise: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(TIMED_OUT), this.commandTimeout);
    });
    return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
  }

  /**
   * Redis left a command unanswered: commands fail at once until it answers a PING, whose reply
   * comes after those of every command sent before it (or until the connection is lost, and
   * `ready` says so). Returns the error the command fails with.
   */
  private stall(): ReplicationUnavailableError {
    if (!this.stalled) {
      this.stalled = true;
      const answered = () => {
        this.stalled = false;
      };
      this.commands.sendCommand(["PING"]).then(answered, answered);
    }
    return this.unanswered();
  }

  private unanswered(): ReplicationUnavailableError {
    return new ReplicationUnavailableError(
      `Redis is unreachable (it did not answer within ${this.commandTimeout} ms, commandTimeout: stopped or overloaded)`,
    );
  }

  private unavailable(cause?: unknown): ReplicationUnavailableError {
    const why = (cause as Error | undefined)?.message ?? this.lastError?.message ?? "the connection is down";
    return new ReplicationUnavailableError(`Redis is unreachable (${why})`);
  }
}

/** A Redis URL without its password, for messages. */
function describe(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || "6379"}`;
  } catch {
    throw new TypeError(`Not a Redis URL: ${JSON.stringify(url)} (expected redis://host:port)`);
  }
}
