import { isIP } from "node:net";

/**
 * What an address is, for deciding whether the OAuth client may connect to it:
 * - `loopback`: this machine (127.0.0.0/8, ::1, `localhost`);
 * - `private`: a private network (10/8, 172.16/12, 192.168/16, 100.64/10, 198.18/15, fc00::/7,
 *   fec0::/10, local-use NAT64);
 * - `link-local`: 169.254/16 and fe80::/10, where cloud metadata services live;
 * - `metadata`: the other cloud metadata addresses (100.100.100.200, fd00:ec2::254);
 * - `reserved`: unspecified, "this network", multicast, broadcast, documentation, Teredo,
 *   IPv4-compatible and unallocated ranges: nothing a server should send a client to;
 * - `public`: the rest.
 */
export type AddressClass = "loopback" | "private" | "link-local" | "metadata" | "reserved" | "public";

/**
 * The class of a host given as an IP address (any notation `URL` or DNS produces, brackets and
 * zone allowed) or as `localhost`; `undefined` for other names, which only resolving can tell.
 * IPv6 forms that carry an IPv4 address (IPv4-mapped, IPv4-translated, NAT64 64:ff9b::/96, 6to4)
 * are the class of that address.
 */
export function addressClass(hostname: string): AddressClass | undefined {
  const host = unbracket(hostname).toLowerCase();
  const kind = isIP(host);
  if (kind === 4) return classOfV4(host.split(".").map(Number));
  if (kind === 6) return classOfV6(ipv6Bytes(host.replace(/%.*$/, "")));
  return host === "localhost" || host.endsWith(".localhost") ? "loopback" : undefined;
}

function classOfV4([a = 0, b = 0, c = 0, d = 0]: number[]): AddressClass {
  if (a === 127) return "loopback";
  if (a === 169 && b === 254) return "link-local";
  if (a === 100 && b === 100 && c === 100 && d === 200) return "metadata";
  if (
    a === 10 ||
    (a === 172 && b >= 16 && b < 32) ||
    (a === 192 && b === 168) ||
    (a === 100 && b >= 64 && b < 128) ||
    (a === 198 && (b === 18 || b === 19))
  ) {
    return "private";
  }
  if (
    a === 0 ||
    a >= 224 ||
    (a === 192 && b === 0 && (c === 0 || c === 2)) ||
    (a === 192 && b === 88 && c === 99) ||
    (a === 198 && b === 51 && c === 100) ||
    (a === 203 && b === 0 && c === 113)
  ) {
    return "reserved";
  }
  return "public";
}

function classOfV6(bytes: number[]): AddressClass {
  const word = (i: number) => (bytes[2 * i]! << 8) | bytes[2 * i + 1]!;
  const zeros = (from: number, to: number) => bytes.slice(from, to).every((byte) => byte === 0);
  const v4At = (i: number) => classOfV4(bytes.slice(i, i + 4));
  if (zeros(0, 10)) {
    if (word(5) === 0xffff) return v4At(12); // ::ffff:0:0/96, IPv4-mapped
    if (word(5) === 0 && zeros(10, 15) && bytes[15] === 1) return "loopback"; // ::1
    return "reserved"; // ::, and ::/96 IPv4-compatible (deprecated)
  }
  if (zeros(0, 8) && word(4) === 0xffff && word(5) === 0) return v4At(12); // ::ffff:0:0:0/96, IPv4-translated
  if (word(0) === 0x64 && word(1) === 0xff9b) {
    if (zeros(4, 12)) return v4At(12); // 64:ff9b::/96, well-known NAT64
    if (word(2) === 1) return "private"; // 64:ff9b:1::/48, local-use NAT64
  }
  if (word(0) === 0x2002) return v4At(2); // 2002::/16, 6to4
  if (word(0) === 0x2001 && (word(1) === 0 || word(1) === 0xdb8)) return "reserved"; // Teredo, documentation
  if (word(0) === 0x100 && zeros(2, 8)) return "reserved"; // 100::/64, discard-only
  if (word(0) === 0xfd00 && word(1) === 0xec2 && zeros(4, 14) && word(7) === 0x254) return "metadata";
  if ((bytes[0]! & 0xfe) === 0xfc) return "private"; // fc00::/7, unique local
  if (bytes[0] === 0xfe && (bytes[1]! & 0xc0) === 0x80) return "link-local"; // fe80::/10
  if (bytes[0] === 0xfe && (bytes[1]! & 0xc0) === 0xc0) return "private"; // fec0::/10, site-local (deprecated)
  if ((bytes[0]! & 0xe0) === 0x20) return "public"; // 2000::/3, global unicast
  return "reserved"; // multicast ff00::/8 and everything unallocated
}

/** The 16 bytes of an IPv6 address `isIP` accepted (`::` shorthand and a trailing IPv4 part allowed). */
function ipv6Bytes(address: string): number[] {
  const words = (part: string): number[] => {
    if (part === "") return [];
    const out: number[] = [];
    for (const group of part.split(":")) {
      if (group.includes(".")) {
        const [a = 0, b = 0, c = 0, d = 0] = group.split(".").map(Number);
        out.push((a << 8) | b, (c << 8) | d);
      } else {
        out.push(Number.parseInt(group, 16));
      }
    }
    return out;
  };
  const gap = address.indexOf("::");
  const head = words(gap === -1 ? address : address.slice(0, gap));
  const tail = gap === -1 ? [] : words(address.slice(gap + 2));
  const all = [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
  return all.flatMap((value) => [value >> 8, value & 255]);
}

/** A host as URLs write an IPv6 address (`[::1]`) without its brackets. */
export function unbracket(host: string): string {
  return host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
}
