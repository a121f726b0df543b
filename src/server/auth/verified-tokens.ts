import type { JWTPayload } from "jose";

/**
 * JWT access tokens already verified, so a client sending the same token on every request pays for
 * one signature check, not one per request (an ECDSA check costs more than the MCP call itself).
 * An entry lasts until the token expires (with the leeway the check allowed) or `maxAge` seconds
 * after it was verified, whichever comes first: a key the issuer withdraws stops being honoured
 * within `maxAge`. At most `max` tokens are kept; the oldest goes first.
 */
export class VerifiedTokens {
  private readonly entries = new Map<string, { payload: JWTPayload; until: number }>();

  constructor(
    private readonly max: number,
    private readonly maxAge: number,
    private readonly leeway: number,
  ) {}

  /** The claims of `token` if it was verified and is still within its time. */
  get(token: string, now = Date.now()): JWTPayload | undefined {
    const entry = this.entries.get(token);
    if (entry === undefined) return undefined;
    if (now < entry.until) return entry.payload;
    this.entries.delete(token);
    return undefined;
  }

  /** Keeps a token that was just verified, with its claims. */
  add(token: string, payload: JWTPayload, now = Date.now()): void {
    if (this.max <= 0 || typeof payload.exp !== "number") return;
    const until = Math.min((payload.exp + this.leeway) * 1000, now + this.maxAge * 1000);
    if (until <= now) return;
    this.entries.delete(token);
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(token, { payload, until });
  }

  get size(): number {
    return this.entries.size;
  }
}
