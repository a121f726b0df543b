import { createHash } from "node:crypto";
import { calculateJwkThumbprint, decodeProtectedHeader, EmbeddedJWK, type JWK, jwtVerify } from "jose";
import { AuthError } from "./errors.js";
import { DpopNonces } from "./nonce.js";
import { type DpopReplayCache, MemoryReplayCache } from "./replay.js";

/** How DPoP-bound tokens (RFC 9449) are checked. Tokens bound to a key (`cnf.jkt`) always are. */
export interface DpopOptions {
  /** Refuse tokens that are not DPoP-bound. Default false. */
  required?: boolean;
  /** The proof algorithms accepted. Default ES256, ES384, ES512, PS256, RS256, EdDSA, Ed25519. */
  algorithms?: string[];
  /** How far a proof's `iat` may lie from now, in seconds. Default 300. */
  maxAge?: number;
  /** Require a nonce this server provided (`DPoP-Nonce`) in every proof. Default false. */
  nonce?: boolean;
  /** The key of nonces; give replicas the same one. Default random per process. */
  nonceSecret?: string | Uint8Array;
  /** Where proofs already seen are kept; default in memory. */
  replayCache?: DpopReplayCache;
}

const DEFAULT_DPOP_ALGORITHMS = ["ES256", "ES384", "ES512", "PS256", "RS256", "EdDSA", "Ed25519"];

/** What a proof must match: the request it came with and the token it accompanies. */
interface ProofTarget {
  readonly method: string;
  /** The request's URL without query and fragment, as this resource is reached. */
  readonly url: string;
  readonly token: string;
  /** The thumbprint the token is bound to. */
  readonly jkt: string;
}

/**
 * Checks DPoP proofs: a `dpop+jwt` signed with an allowed algorithm by the public key in its
 * header, whose thumbprint the token is bound to; `htm` and `htu` naming this request; `iat`
 * recent; `ath` the token's hash; a `jti` never seen before; and, if asked for, a nonce.
 */
export class DpopVerifier {
  readonly algorithms: readonly string[];
  private readonly maxAge: number;
  private readonly replay: DpopReplayCache;
  private readonly nonces: DpopNonces | undefined;

  constructor(
    private readonly options: DpopOptions,
    private readonly leeway: number,
  ) {
    this.algorithms = options.algorithms ?? DEFAULT_DPOP_ALGORITHMS;
    const weak = this.algorithms.filter((alg) => alg === "none" || alg.startsWith("HS"));
    if (weak.length > 0) throw new TypeError(`DPoP proofs cannot be accepted with ${weak.join(", ")}`);
    this.maxAge = options.maxAge ?? 300;
    this.replay = options.replayCache ?? new MemoryReplayCache();
    this.nonces = options.nonce ? new DpopNonces(options.nonceSecret, this.maxAge) : undefined;
  }

  get required(): boolean {
    return this.options.required === true;
  }

  /** A fresh nonce to send with a `use_dpop_nonce` challenge, when nonces are required. */
  nonce(): string | undefined {
    return this.nonces?.current();
  }

  async verify(proof: string | undefined, target: ProofTarget): Promise<void> {
    const refuse = (why: string) => new AuthError("invalid_dpop_proof", why, "DPoP");
    if (proof === undefined) throw refuse("a DPoP-bound token needs a DPoP proof");
    if (!/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(proof))
      throw refuse("the DPoP header must be exactly one proof JWT");
    let jwk: JWK | undefined;
    let payload: Record<string, unknown>;
    try {
      jwk = decodeProtectedHeader(proof).jwk;
      ({ payload } = await jwtVerify(proof, EmbeddedJWK, {
        typ: "dpop+jwt",
        algorithms: [...this.algorithms],
      }));
    } catch (error) {
      throw refuse(`the DPoP proof does not verify: ${(error as Error).message}`);
    }
    if ((await calculateJwkThumbprint(jwk!, "sha256")) !== target.jkt)
      throw refuse("the DPoP proof is signed by another key than the token is bound to");
    if (payload.htm !== target.method)
      throw refuse(`the DPoP proof is for ${String(payload.htm)}, not ${target.method}`);
    if (!sameUrl(payload.htu, target.url))
      throw refuse(`the DPoP proof is for another URL (htu), not ${target.url}`);
    const now = Date.now() / 1000;
    const iat = payload.iat;
    if (typeof iat !== "number" || Math.abs(now - iat) > this.maxAge + this.leeway)
      throw refuse("the DPoP proof is too old, or from the future (iat)");
    if (payload.ath !== createHash("sha256").update(target.token).digest("base64url"))
      throw refuse("the DPoP proof is for another access token (ath)");
    if (typeof payload.jti !== "string" || payload.jti === "" || payload.jti.length > 256)
      throw refuse("the DPoP proof has no usable jti");
    if (this.nonces && !this.nonces.valid(payload.nonce))
      throw new AuthError(
        "use_dpop_nonce",
        "the DPoP proof must carry the nonce this server provides",
        "DPoP",
      );
    const expiresAt = (iat + this.maxAge + this.leeway) * 1000;
    if (!(await this.replay.firstUse(`${target.jkt}:${payload.jti}`, expiresAt)))
      throw refuse("the DPoP proof was used before (jti)");
  }
}

/** `htu` compared as RFC 9449 says: without query and fragment, after URL normalization. */
function sameUrl(htu: unknown, url: string): boolean {
  if (typeof htu !== "string") return false;
  try {
    const parsed = new URL(htu);
    return `${parsed.origin}${parsed.pathname}` === url;
  } catch {
    return false;
  }
}
