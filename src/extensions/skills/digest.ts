import { createHash } from "node:crypto";

/** `sha256:{hex}` over raw bytes, the digest form of a skill's resources. */
export function digestOf(bytes: Uint8Array): string {
  return `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
}

/** The digest form: `sha256:` and 64 lowercase hexadecimal characters. */
export const DIGEST = /^sha256:[0-9a-f]{64}$/;
