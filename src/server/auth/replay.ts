/**
 * Where the DPoP proofs already seen are kept until they are too old to be accepted anyway
 * (RFC 9449 §11.1). Replicas behind one load balancer should share one.
 */
export interface DpopReplayCache {
  /** Records `key` until `expiresAt` (ms since the epoch); whether it was new. */
  firstUse(key: string, expiresAt: number): boolean | Promise<boolean>;
}

/**
 * A replay cache in memory, with a cap: past it, expired entries go first, then the oldest (a
 * proof that old is refused by its `iat` before long).
 */
export class MemoryReplayCache implements DpopReplayCache {
  private readonly seen = new Map<string, number>();

  constructor(private readonly cap = 100_000) {}

  firstUse(key: string, expiresAt: number): boolean {
    const now = Date.now();
    const known = this.seen.get(key);
    if (known !== undefined && known > now) return false;
    if (this.seen.size >= this.cap) this.evict(now);
    this.seen.set(key, expiresAt);
    return true;
  }

  private evict(now: number): void {
    for (const [key, expiresAt] of this.seen) if (expiresAt <= now) this.seen.delete(key);
    for (const key of this.seen.keys()) {
      if (this.seen.size < this.cap) break;
      this.seen.delete(key);
    }
  }
}
