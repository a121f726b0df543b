/**
 * `--trace`: every JSON-RPC message the client sends (→) and receives (←), one line each with the
 * time, on stderr or (`--trace=FILE`) in a file. Credentials never appear in it.
 */
import { closeSync, openSync, writeSync } from "node:fs";
import type { JSONRPCMessage } from "../../jsonrpc/messages.js";
import type { MessageTrace } from "../../protocol/engine/peer.js";
import { describeError, UsageError } from "./errors.js";
import { inertJson } from "./peer-text.js";
import { note } from "./status.js";
import { err } from "./terminal.js";

/** Keys whose values are credentials, wherever they appear (case-insensitive). */
const SECRET_KEYS = new Set([
  "authorization",
  "proxy-authorization",
  "cookie",
  "set-cookie",
  "x-api-key",
  "api_key",
  "apikey",
  "token",
  "access_token",
  "refresh_token",
  "id_token",
  "client_secret",
  "password",
]);

const REDACTED = "[redacted]";

/** Deeper than this a value is shown as it is: the walk of peer data stays bounded. */
const MAX_DEPTH = 32;

/** `value` with the values of credential keys replaced; the original is left alone. */
export function redact(value: unknown, depth = 0): unknown {
  if (typeof value !== "object" || value === null || depth >= MAX_DEPTH) return value;
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    copy[key] = SECRET_KEYS.has(key.toLowerCase()) ? REDACTED : redact(item, depth + 1);
  }
  return copy;
}

/** `12:34:56.789`, local time. */
function timestamp(date = new Date()): string {
  const two = (n: number) => String(n).padStart(2, "0");
  const ms = String(date.getMilliseconds()).padStart(3, "0");
  return `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}.${ms}`;
}

/** Where trace lines go, and how the connection is described in them. */
export class Tracer {
  private fd: number | undefined;

  /** `file` undefined: stderr (coloured on a terminal). */
  constructor(private readonly file?: string) {
    if (file === undefined) return;
    try {
      this.fd = openSync(file, "w");
    } catch (error) {
      throw new UsageError(`--trace=${file}: ${describeError(error)}`);
    }
  }

  /** The message trace to give the client. */
  readonly trace: MessageTrace = (direction, message: JSONRPCMessage) => {
    const arrow = direction === "send" ? "→" : "←";
    // Inert in the file too: it is read with cat and less.
    this.line(arrow, inertJson(redact(message)), direction === "send" ? "cyan" : "green");
  };

  /** A line about the connection itself (what is started or reached, with which headers). */
  info(text: string): void {
    this.line("#", text, "dim");
  }

  /** Closes the file; idempotent. */
  close(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
  }

  private line(mark: string, text: string, style: "cyan" | "green" | "dim"): void {
    const time = timestamp();
    if (this.file === undefined) {
      note(`${err("dim", time)} ${err(style, mark)} ${text}`);
    } else if (this.fd !== undefined) {
      writeSync(this.fd, `${time} ${mark} ${text}\n`);
    }
  }
}

/** `authorization: [redacted], x-trace: 1`: header names with their values, credentials hidden. */
export function describeHeaders(headers: Record<string, string> | undefined): string {
  const redacted = redact(headers ?? {}) as Record<string, string>;
  return Object.entries(redacted)
    .map(([name, value]) => `${name}: ${value}`)
    .join(", ");
}

/** The URL with a password and credential query parameters (`?token=…`) hidden. */
export function describeUrl(url: string | URL): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return String(url);
  }
  if (parsed.password) parsed.password = REDACTED;
  for (const key of [...parsed.searchParams.keys()]) {
    if (SECRET_KEYS.has(key.toLowerCase())) parsed.searchParams.set(key, REDACTED);
  }
  return parsed.href.replaceAll(encodeURIComponent(REDACTED), REDACTED);
}
