import { isIP } from "node:net";
import { OAuthError } from "./errors.js";

/** Whether a host name is this machine: `localhost` (and its subdomains) or a loopback address. */
export function isLoopbackHost(hostname: string): boolean {
  const host = unbracket(hostname).toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  const kind = isIP(host);
  if (kind === 4) return host.startsWith("127.");
  if (kind === 6) return host === "::1" || mappedV4(host)?.startsWith("127.") === true;
  return false;
}

/** The address class of a host given as an IP literal; `undefined` for names. */
export function addressClass(
  hostname: string,
): "loopback" | "private" | "link-local" | "reserved" | "public" | undefined {
  const host = unbracket(hostname).toLowerCase();
  const kind = isIP(host);
  if (kind === 0) return host === "localhost" || host.endsWith(".localhost") ? "loopback" : undefined;
  const v4 = kind === 4 ? host : mappedV4(host);
  if (v4 !== undefined) return classOfV4(v4);
  if (host === "::1") return "loopback";
  if (host === "::") return "reserved";
  if (/^fe[89ab]/.test(host)) return "link-local";
  if (/^f[cd]/.test(host)) return "private";
  if (host.startsWith("ff")) return "reserved";
  return "public";
}

function classOfV4(address: string): "loopback" | "private" | "link-local" | "reserved" | "public" {
  const [a = 0, b = 0] = address.split(".").map(Number);
  if (a === 127) return "loopback";
  if (a === 169 && b === 254) return "link-local";
  if (
    a === 10 ||
    (a === 172 && b >= 16 && b < 32) ||
    (a === 192 && b === 168) ||
    (a === 100 && b >= 64 && b < 128)
  ) {
    return "private";
  }
  if (a === 0 || a >= 224) return "reserved";
  return "public";
}

/** The IPv4 address inside an IPv4-mapped IPv6 one (`::ffff:127.0.0.1`, or as URLs write it, `::ffff:7f00:1`). */
function mappedV4(host: string): string | undefined {
  const dotted = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(host);
  if (dotted) return dotted[1];
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
  if (!hex) return undefined;
  const high = Number.parseInt(hex[1]!, 16);
  const low = Number.parseInt(hex[2]!, 16);
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

function unbracket(host: string): string {
  return host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
}

/**
 * Checks a URL a peer handed the client (protected-resource metadata, authorization-server
 * metadata and its endpoints) before the client sends anything there:
 * - `https:`, or `http:` only when the MCP server itself is reached over `http:` or it is loopback;
 * - no credentials in the URL;
 * - never a link-local (cloud metadata), unspecified or multicast address;
 * - a loopback or private address only when the MCP server is itself on one.
 * Host names are judged as written (IP literals and `localhost`), not resolved.
 */
export function checkPeerUrl(value: string, server: URL, what: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new OAuthError(`The ${what} ${JSON.stringify(value.slice(0, 200))} is not a URL`);
  }
  const refuse = (why: string) => new OAuthError(`Refusing the ${what} ${url.href.slice(0, 200)}: ${why}`);
  if (url.protocol !== "https:" && url.protocol !== "http:")
    throw refuse(`${url.protocol} URLs are not allowed`);
  if (url.username || url.password) throw refuse("it carries credentials");
  const cls = addressClass(url.hostname);
  if (cls === "link-local" || cls === "reserved") throw refuse(`it is a ${cls} address`);
  const serverClass = addressClass(server.hostname);
  const serverInternal = serverClass === "loopback" || serverClass === "private";
  if ((cls === "loopback" || cls === "private") && !serverInternal) {
    throw refuse(`a ${cls} address, for a server that is not on one`);
  }
  if (url.protocol === "http:" && server.protocol !== "http:" && cls !== "loopback") {
    throw refuse("plain http, for a server reached over https");
  }
  return url;
}

/** Characters never let through to a browser command line, though it is spawned without a shell. */
const UNSAFE_FOR_COMMAND = /[\s"'`$\\<>|;{}^()]/;

/** Refuses a URL with characters a command line would interpret (the authorization endpoint's). */
export function checkCommandSafe(value: string, what: string): void {
  if (value.startsWith("-") || UNSAFE_FOR_COMMAND.test(value)) {
    throw new OAuthError(
      `Refusing the ${what} ${JSON.stringify(value.slice(0, 200))}: it holds characters a command line would interpret`,
    );
  }
}

/**
 * Checks a URL the client is about to open in the user's browser: `https:`, or `http:` on a
 * loopback host, and nothing a command line could mistake for more than one URL.
 */
export function checkBrowserUrl(value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new OAuthError(`Refusing to open ${JSON.stringify(value.slice(0, 200))}: not a URL`);
  }
  const refuse = (why: string) =>
    new OAuthError(`Refusing to open ${JSON.stringify(value.slice(0, 200))}: ${why}`);
  if (url.protocol !== "https:" && !(url.protocol === "http:" && isLoopbackHost(url.hostname))) {
    throw refuse("only https: URLs (or http: on this machine) are opened");
  }
  if (value.startsWith("-") || UNSAFE_FOR_COMMAND.test(value) || UNSAFE_FOR_COMMAND.test(url.href)) {
    throw refuse("it holds characters a command line would interpret");
  }
  if (url.username || url.password) throw refuse("it carries credentials");
  return url;
}
