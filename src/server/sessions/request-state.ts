import { ErrorCode, McpError } from "../../jsonrpc/errors.js";
import { nodeCrypto } from "../../util/crypto.js";

/** How long a multi round-trip `requestState` stays valid by default: 10 minutes. */
const DEFAULT_REQUEST_STATE_TTL = 10 * 60_000;

/**
 * Signs and checks the `requestState` of multi round-trip requests: the answers gathered so far,
 * bound to the method and target they were given for and to the caller they were given by, with
 * an HMAC so a client can neither forge nor alter them. Nothing is kept in server memory between
 * rounds; servers behind a load balancer share the secret.
 */
export class RequestStateSigner {
  private secret: Buffer | undefined;

  constructor(
    secret?: string | Uint8Array,
    /** How long a state stays valid after it was issued, in ms. */
    private readonly ttl = DEFAULT_REQUEST_STATE_TTL,
  ) {
    if (secret !== undefined) this.secret = Buffer.from(secret);
  }

  /** The given secret, or a random one made when first needed. */
  private get key(): Buffer {
    this.secret ??= nodeCrypto().randomBytes(32);
    return this.secret;
  }

  /**
   * A state carrying `answers` for `target`, for `caller` alone: whom the request's credentials
   * name (see `principalOf`), `undefined` for a caller without credentials.
   */
  sign(target: string, answers: Record<string, unknown>, caller?: string): string {
    const state: { t: string; a: Record<string, unknown>; e: number; c?: string } = {
      t: target,
      a: answers,
      e: Date.now() + this.ttl,
    };
    // A digest, not the caller itself: the state is only encoded, and travels in logs and proxies.
    if (caller !== undefined) state.c = this.digest(caller);
    const body = Buffer.from(JSON.stringify(state)).toString("base64url");
    return `${body}.${this.mac(body)}`;
  }

  /**
   * The answers a state carries; -32602 if it was altered, forged, made for another request, or
   * issued to another caller than `caller`.
   */
  verify(state: unknown, target: string, caller?: string): Record<string, unknown> {
    if (typeof state !== "string") throw invalid("requestState must be a string");
    const dot = state.lastIndexOf(".");
    const body = state.slice(0, dot);
    const mac = Buffer.from(state.slice(dot + 1));
    const expected = Buffer.from(this.mac(body));
    if (dot <= 0 || mac.length !== expected.length || !nodeCrypto().timingSafeEqual(mac, expected)) {
      throw invalid("requestState does not verify: it was altered or was not issued by this server");
    }
    const parsed = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as {
      t: string;
      a: Record<string, unknown>;
      e: number;
      c?: string;
    };
    if (parsed.t !== target) throw invalid(`requestState was issued for ${parsed.t}, not ${target}`);
    // Another caller replaying a state would complete a request with answers it never gave.
    if (parsed.c !== (caller === undefined ? undefined : this.digest(caller))) {
      throw invalid(
        "requestState was issued to another caller (subject and client): start the request again with your own credentials",
      );
    }
    // Replays within the lifetime still verify: a handler with side effects must not rely on
    // a state being used once.
    if (!(parsed.e >= Date.now())) throw invalid("requestState has expired: start the request again");
    return parsed.a;
  }

  private mac(body: string): string {
    return nodeCrypto().createHmac("sha256", this.key).update(body).digest("base64url");
  }

  /** Who a state is for, keyed so the digest says nothing to whoever reads the state. */
  private digest(caller: string): string {
    return nodeCrypto().createHmac("sha256", this.key).update(`caller\u0000${caller}`).digest("base64url");
  }
}

function invalid(message: string): McpError {
  return new McpError(ErrorCode.InvalidParams, `Invalid params: ${message}`);
}
