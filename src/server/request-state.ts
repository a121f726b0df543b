import { ErrorCode, McpError } from "../jsonrpc/errors.js";
import { nodeCrypto } from "../util/crypto.js";

/**
 * Signs and checks the `requestState` of multi round-trip requests: the answers gathered so far,
 * bound to the method and target they were given for, with an HMAC so a client can neither forge
 * nor alter them. Nothing is kept in server memory between rounds; servers behind a load
 * balancer share the secret.
 */
export class RequestStateSigner {
  private secret: Buffer | undefined;

  constructor(secret?: string | Uint8Array) {
    if (secret !== undefined) this.secret = Buffer.from(secret);
  }

  /** The given secret, or a random one made when first needed. */
  private get key(): Buffer {
    this.secret ??= nodeCrypto().randomBytes(32);
    return this.secret;
  }

  sign(target: string, answers: Record<string, unknown>): string {
    const body = Buffer.from(JSON.stringify({ t: target, a: answers })).toString("base64url");
    return `${body}.${this.mac(body)}`;
  }

  /** The answers a state carries; -32602 if it was altered, forged, or made for another request. */
  verify(state: unknown, target: string): Record<string, unknown> {
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
    };
    if (parsed.t !== target) throw invalid(`requestState was issued for ${parsed.t}, not ${target}`);
    return parsed.a;
  }

  private mac(body: string): string {
    return nodeCrypto().createHmac("sha256", this.key).update(body).digest("base64url");
  }
}

function invalid(message: string): McpError {
  return new McpError(ErrorCode.InvalidParams, `Invalid params: ${message}`);
}
