/**
 * Access tokens already verified, so a client sending the same `Authorization` header on every
 * request pays for one signature check, not one per request (an ECDSA check costs more than the
 * MCP call itself). An entry lasts until the token expires (with the leeway its check allowed) or
 * `maxAge` seconds after it was verified, whichever comes first: a key the issuer withdraws stops
 * being honoured within `maxAge`. At most `max` entries are kept; the oldest goes first.
 */
export class VerifiedTokens<T> {
  private readonly entries = new Map<string, { value: T; until: number }>();

  constructor(
    private readonly max: number,
    private readonly maxAge: number,
    private readonly leeway: number,
  ) {}

  /** What was kept for `key`, if it is still within its time. */
  get(key: string, now = Date.now()): T | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (now < entry.until) return entry.value;
    this.entries.delete(key);
    return undefined;
  }

  /** Keeps what a token just verified gave, for a token expiring at `exp` (seconds); none without one. */
  add(key: string, value: T, exp: number | undefined, now = Date.now()): void {
    if (this.max <= 0 || exp === undefined) return;
    const until = Math.min((exp + this.leeway) * 1000, now + this.maxAge * 1000);
    if (until <= now) return;
    this.entries.delete(key);
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { value, until });
  }

  get size(): number {
    return this.entries.size;
  }
}
