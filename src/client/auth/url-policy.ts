import { isIP } from "node:net";
import { type AddressClass, addressClass, unbracket } from "./address-class.js";
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

/** What the client may connect to, judged from the MCP server's URL and the user's options. */
export interface PeerPolicy {
  /**
   * The MCP server. Only its URL as written says whether it is on this machine or a private
   * network (`localhost`, an IP literal): what its name resolves to is up to its DNS, which a
   * hostile server controls.
   */
  server: URL;
  /** Private addresses allowed for any server (`OAuthOptions.allowPrivateNetworks`). */
  allowPrivateNetworks?: boolean;
}

/**
 * Why the client will not connect to an address of class `cls` for this policy, or `undefined`
 * when it may: never link-local, cloud metadata or reserved addresses; loopback only when the MCP
 * server is on loopback; private addresses when it is on loopback or a private address, or when
 * `allowPrivateNetworks` says so.
 */
export function addressRefusal(cls: AddressClass, policy: PeerPolicy): string | undefined {
  if (cls === "link-local" || cls === "metadata" || cls === "reserved") return `it is a ${cls} address`;
  const serverClass = addressClass(policy.server.hostname);
  if (cls === "loopback" && serverClass !== "loopback") {
    return "a loopback address, for a server that is not on this machine";
  }
  if (
    cls === "private" &&
    serverClass !== "loopback" &&
    serverClass !== "private" &&
    policy.allowPrivateNetworks !== true
  ) {
    return "a private address, for a server that is not on one (set allowPrivateNetworks if the authorization server is on your internal network)";
  }
  return undefined;
}

/**
 * Checks a URL a peer handed the client (protected-resource metadata, authorization-server
 * metadata and its endpoints) before the client sends anything there:
 * - `https:`, or `http:` only when the MCP server itself is reached over `http:` or it is loopback;
 * - no credentials in the URL;
 * - an IP literal (or `localhost`) must pass `addressRefusal`.
 * Host names are judged here as written; the client's own fetch resolves them and checks every
 * address it would connect to (pinned-fetch.ts).
 */
export function checkPeerUrl(value: string, policy: PeerPolicy | URL, what: string): URL {
  const rules = policy instanceof URL ? { server: policy } : policy;
  const { server } = rules;
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
  const why = cls && addressRefusal(cls, rules);
  if (why) throw refuse(why);
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
