import { createHash, randomUUID } from "node:crypto";
import { exportJWK, importJWK, type JWK, SignJWT } from "jose";
import * as oauth from "oauth4webapi";

/** The algorithm of the keys the client makes: the one every DPoP server supports. */
const ALG = "ES256";

/**
 * A DPoP key (RFC 9449): the token request proves possession of it so the tokens are bound to
 * it, and every request to the MCP server carries a fresh proof. Nonces a server demands are kept
 * per origin.
 */
export class DpopKey {
  /** For oauth4webapi's token requests (it keeps the authorization server's nonce itself). */
  readonly handle: oauth.DPoPHandle;
  private readonly nonces = new Map<string, string>();
  private publicJwk: JWK | undefined;

  private constructor(private readonly pair: oauth.CryptoKeyPair) {
    this.handle = oauth.DPoP({}, pair);
  }

  /** A new key pair. */
  static async generate(): Promise<DpopKey> {
    return new DpopKey(await oauth.generateKeyPair(ALG, { extractable: true }));
  }

  /** The key pair kept as a private JWK. */
  static async fromJwk(jwk: JWK): Promise<DpopKey> {
    const { d: _d, ...pub } = jwk;
    const privateKey = (await importJWK(jwk, ALG)) as oauth.CryptoKey;
    const publicKey = (await importJWK(pub, ALG, { extractable: true })) as oauth.CryptoKey;
    return new DpopKey({ privateKey, publicKey });
  }

  /** The private JWK, to keep with the tokens bound to it. */
  async toJwk(): Promise<JWK> {
    return exportJWK(this.pair.privateKey);
  }

  /** Remembers the nonce a server demanded (`DPoP-Nonce`), for the next proofs to `url`'s origin. */
  setNonce(url: URL, nonce: string): void {
    if (this.nonces.size >= 32 && !this.nonces.has(url.origin)) this.nonces.clear();
    this.nonces.set(url.origin, nonce);
  }

  /** A proof for one request to a protected resource with `accessToken`. */
  async proof(method: string, url: URL, accessToken: string): Promise<string> {
    this.publicJwk ??= await exportJWK(this.pair.publicKey);
    const { kty, crv, x, y } = this.publicJwk;
    const payload: Record<string, unknown> = {
      jti: randomUUID(),
      htm: method,
      htu: `${url.origin}${url.pathname}`,
      ath: createHash("sha256").update(accessToken).digest("base64url"),
    };
    const nonce = this.nonces.get(url.origin);
    if (nonce !== undefined) payload.nonce = nonce;
    return new SignJWT(payload)
      .setProtectedHeader({ alg: ALG, typ: "dpop+jwt", jwk: { kty: kty!, crv: crv!, x: x!, y: y! } })
      .setIssuedAt()
      .sign(this.pair.privateKey);
  }
}

/** Whether the authorization server can bind tokens to an `ES256` key. */
export function dpopSupported(as: oauth.AuthorizationServer): boolean {
  const algs = as.dpop_signing_alg_values_supported;
  return Array.isArray(algs) && algs.includes(ALG);
}
