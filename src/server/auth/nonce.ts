import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * Server-provided DPoP nonces (RFC 9449 §9) that need no storage: a time step and its HMAC. A
 * nonce is good for the step it was made in and the next one; replicas given the same secret
 * accept each other's.
 */
export class DpopNonces {
  private readonly secret: Buffer;

  constructor(
    secret: string | Uint8Array | undefined,
    /** How long a step lasts, in seconds. */
    private readonly step: number,
  ) {
    this.secret = secret === undefined ? randomBytes(32) : Buffer.from(secret);
  }

  /** A nonce of the current step. */
  current(): string {
    return this.make(this.stepNow());
  }

  /** Whether `nonce` was made by this server in this step or the previous one. */
  valid(nonce: unknown): boolean {
    if (typeof nonce !== "string") return false;
    const now = this.stepNow();
    return [now, now - 1].some((step) => equal(this.make(step), nonce));
  }

  private stepNow(): number {
    return Math.floor(Date.now() / 1000 / this.step);
  }

  private make(step: number): string {
    const mac = createHmac("sha256", this.secret).update(String(step)).digest("base64url");
    return `${step.toString(36)}.${mac.slice(0, 22)}`;
  }
}

function equal(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
