import type { LookupAddress } from "node:dns";
import { lookup as systemLookup } from "node:dns/promises";
import type { LookupFunction } from "node:net";
import { addressClass } from "./address-class.js";
import { OAuthError } from "./errors.js";
import { addressRefusal, type PeerPolicy } from "./url-policy.js";

/** Resolves a host name to every address it has (A and AAAA). */
export type HostResolver = (hostname: string) => Promise<readonly LookupAddress[]>;

const systemResolver: HostResolver = (hostname) => systemLookup(hostname, { all: true, verbatim: true });

let resolver: HostResolver = systemResolver;

/**
 * Replaces the resolver the OAuth client's own fetch uses (`undefined` puts the system's back).
 * For tests, which must never resolve a real name: map names to the addresses under test.
 * Internal: not exported from the package.
 */
export function setHostResolver(next: HostResolver | undefined): void {
  resolver = next ?? systemResolver;
}

/**
 * A `lookup` for `net`/`http` that resolves once, refuses the connection if any address fails
 * the policy (so a name with one good and one bad record is refused, whichever would be tried
 * first), and hands the checked addresses to the socket: what was checked is what is connected
 * to, with no second lookup for a rebinding DNS server to answer differently.
 */
export function checkingLookup(policy: PeerPolicy): LookupFunction {
  return (hostname, options, callback) => {
    resolver(hostname).then(
      (found) => {
        let addresses: LookupAddress[];
        try {
          addresses = checked(hostname, found, options.family, policy);
        } catch (error) {
          callback(error as NodeJS.ErrnoException, "");
          return;
        }
        if (options.all) callback(null, addresses);
        else callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ""),
    );
  };
}

/** The addresses to connect to (of `family`, when one is asked for), once every one passed. */
function checked(
  hostname: string,
  found: readonly LookupAddress[],
  family: number | string | undefined,
  policy: PeerPolicy,
): LookupAddress[] {
  for (const { address } of found) {
    const why = addressRefusal(addressClass(address) ?? "reserved", policy);
    if (why) throw new OAuthError(`Refusing to connect to ${hostname} (${address}): ${why}`);
  }
  const wanted = family === 4 || family === 6 ? family : undefined;
  const addresses = found.filter((entry) => wanted === undefined || entry.family === wanted);
  if (addresses.length === 0) {
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND", hostname });
  }
  return addresses;
}
