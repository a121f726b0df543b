import { ReplicationUnavailableError } from "../transports/http/server/replication.js";
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
}

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

  private constructor(
    private readonly commands: Client,
    private readonly subscriber: Client,
  ) {}

  /** Connects both; rejects, naming the URL's host, if Redis cannot be reached. */
  static async open(options: RedisConnectionOptions): Promise<RedisConnection> {
    const where = describe(options.url);
    let connected = false;
    const commands = makeClient(options, () => connected);
    const subscriber = makeClient(options, () => connected);
    const connection = new RedisConnection(commands, subscriber);
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

  /** Sends one command; rejects with a `ReplicationUnavailableError` while Redis cannot be reached. */
  async command<T = unknown>(args: string[]): Promise<T> {
    if (!this.commands.isReady) throw this.unavailable();
    try {
      return (await this.commands.sendCommand(args)) as T;
    } catch (error) {
      if (!this.commands.isReady) throw this.unavailable(error);
      throw error;
    }
  }

  /** Receives what is published on `channel` until the returned function is called. */
  async subscribe(channel: string, listener: (message: string) => void): Promise<() => void> {
    let set = this.listeners.get(channel);
    if (!set) {
      set = new Set();
      this.listeners.set(channel, set);
      const all = set;
      try {
        await this.subscriber.subscribe(channel, (message: string) => {
          for (const each of all) each(message);
        });
      } catch (error) {
        this.listeners.delete(channel);
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
