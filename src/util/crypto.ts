import { createRequire } from "node:module";

type Crypto = typeof import("node:crypto");

let loaded: Crypto | undefined;

/**
 * `node:crypto`, loaded on first use: loading it costs about 15 ms of start-up, and most servers
 * and clients never need it (it signs multi round-trip state and names colliding tools).
 */
export function nodeCrypto(): Crypto {
  loaded ??= createRequire(import.meta.url)("node:crypto") as Crypto;
  return loaded;
}
