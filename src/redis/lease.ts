import type { RedisConnection } from "./connection.js";

/** Options of a replica's liveness lease. */
export interface LeaseOptions {
  /** How often the lease is renewed, in ms. */
  interval: number;
  /** How long the lease lasts unrenewed, in ms: this long after a replica died, the others know. */
  ttl: number;
}

/**
 * A replica's liveness lease: a key in Redis (`<prefix>replica:<id>`) renewed every `interval` ms
 * and expiring `ttl` ms after the last renewal, so the other replicas can tell that one died (it
 * was killed, its machine went down) and answer for what it left unfinished.
 */
export class ReplicaLease {
  private timer: NodeJS.Timeout | undefined;
  /** Since when every renewal succeeded (`undefined`: the last one failed). */
  private renewedSince: number | undefined;
  private renewing = false;

  constructor(
    private readonly redis: RedisConnection,
    private readonly prefix: string,
    readonly replicaId: string,
    private readonly options: LeaseOptions,
  ) {}

  /** How often the lease is renewed, in ms: how often it is worth asking whether another lapsed. */
  get interval(): number {
    return this.options.interval;
  }

  /** Takes the lease and renews it from now on. */
  async start(): Promise<void> {
    await this.renew();
    this.timer = setInterval(() => void this.renew(), this.options.interval);
    this.timer.unref();
  }

  /**
   * Whether the replica `replicaId` holds its lease: `false` if it lapsed, `undefined` when this
   * replica cannot tell — Redis cannot be reached, or its own lease has not been renewed without
   * fail for a whole `ttl` (after Redis stalled, every lease may have lapsed, the living ones too).
   */
  async alive(replicaId: string): Promise<boolean | undefined> {
    if (replicaId === this.replicaId) return true;
    const since = this.renewedSince;
    if (since === undefined || Date.now() - since < this.options.ttl) return undefined;
    try {
      return (await this.redis.command<number>(["EXISTS", this.key(replicaId)])) === 1;
    } catch {
      return undefined;
    }
  }

  /** Stops renewing and gives the lease up: this replica runs nothing any more. */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.redis.command(["DEL", this.key(this.replicaId)]).catch(() => {});
  }

  private async renew(): Promise<void> {
    if (this.renewing) return;
    this.renewing = true;
    try {
      await this.redis.command(["SET", this.key(this.replicaId), "1", "PX", String(this.options.ttl)]);
      this.renewedSince ??= Date.now();
    } catch {
      this.renewedSince = undefined;
    } finally {
      this.renewing = false;
    }
  }

  private key(replicaId: string): string {
    return `${this.prefix}replica:${replicaId}`;
  }
}
