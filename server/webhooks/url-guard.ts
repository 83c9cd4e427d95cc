/**
 * Outgoing webhook URLs must not reach this server's private network: loopback, private ranges,
 * link-local (cloud metadata at 169.254.169.254), CGNAT, benchmarking, multicast, broadcast,
 * unspecified, documentation and reserved space, and their IPv6 forms. Checked when an endpoint is
 * configured, and again on every connection (DNS can change between the two): literal IPs and
 * `localhost` names before connecting, names on the socket's own DNS answer (guardedLookup).
 * Redirects are never followed (transport.ts), so there is no later hop to check. All of it is
 * skipped when WEBHOOK_ALLOW_PRIVATE_URLS=true.
 *
 * Classification is ipaddr.js's: only its "unicast" range is public, for IPv4 and IPv6 alike. IPv6
 * forms that carry an IPv4 address (IPv4-mapped ::ffff:a.b.c.d, IPv4-compatible ::a.b.c.d,
 * IPv4-translated ::ffff:0:a.b.c.d, NAT64 64:ff9b::/96 and 64:ff9b:1::/48, 6to4 2002::/16, Teredo
 * 2001::/32) are judged by the IPv4 inside: `[::ffff:7f00:1]`, which is what the URL parser makes
 * of `[::ffff:127.0.0.1]`, is loopback.
 */
import dns from "node:dns";
import net from "node:net";

import ipaddr from "ipaddr.js";

import { AppError } from "../errors";

type IPv4 = ipaddr.IPv4;
type IPv6 = ipaddr.IPv6;

const v4 = (high: number, low: number): IPv4 =>
  new ipaddr.IPv4([(high >> 8) & 0xff, high & 0xff, (low >> 8) & 0xff, low & 0xff]);

/**
 * The IPv4 addresses an IPv6 address carries, when it is one of the transition forms; null for
 * any other IPv6 address. Several candidates when the position is not fixed (local-use NAT64) or
 * the form carries two (Teredo: server and client).
 */
function embeddedIPv4(ip: IPv6): IPv4[] | null {
  const p = ip.parts;
  const tail = () => v4(p[6]!, p[7]!);
  // ::/96 (IPv4-compatible, with :: and ::1), ::ffff:0:0/96 (mapped), ::ffff:0:0:0/96 (translated)
  if (p[0] === 0 && p[1] === 0 && p[2] === 0 && p[3] === 0) {
    if (p[4] === 0 && (p[5] === 0 || p[5] === 0xffff)) return [tail()];
    if (p[4] === 0xffff && p[5] === 0) return [tail()];
  }
  if (p[0] === 0x64 && p[1] === 0xff9b) {
    if (p[2] === 0 && p[3] === 0 && p[4] === 0 && p[5] === 0) return [tail()]; // 64:ff9b::/96
    // 64:ff9b:1::/48 is local-use (RFC 8215): the network picks the prefix length, so every
    // RFC 6052 position inside it (/48, /56, /64, /96) is checked.
    if (p[2] === 1) {
      const byte = (i: number) => (p[i >> 1]! >> (i % 2 === 0 ? 8 : 0)) & 0xff;
      const at = (...i: number[]) => new ipaddr.IPv4(i.map(byte));
      return [at(6, 7, 9, 10), at(7, 9, 10, 11), at(9, 10, 11, 12), tail()];
    }
  }
  if (p[0] === 0x2002) return [v4(p[1]!, p[2]!)]; // 6to4
  // Teredo: the server's IPv4, and the client's stored bit-inverted in the last 32 bits.
  if (p[0] === 0x2001 && p[1] === 0) return [v4(p[2]!, p[3]!), v4(~p[6]! & 0xffff, ~p[7]! & 0xffff)];
  return null;
}

function isPublicIp(ip: IPv4 | IPv6): boolean {
  if (ip.kind() === "ipv4") return ip.range() === "unicast";
  const embedded = embeddedIPv4(ip as IPv6);
  if (embedded) return embedded.every((inner) => inner.range() === "unicast");
  return ip.range() === "unicast";
}

/** A literal IP in any of its usual spellings: bare, in brackets, with an IPv6 zone. */
function parseIp(address: string): IPv4 | IPv6 | null {
  const bare = address.trim().replace(/^\[(.*)\]$/, "$1");
  const withoutZone = bare.replace(/%.*$/, "");
  if (!net.isIP(withoutZone)) return null;
  try {
    return ipaddr.parse(bare);
  } catch {
    return null;
  }
}

/** True for any address an outgoing webhook must not reach (and for anything that is not an IP). */
export function isPrivateAddress(address: string): boolean {
  const ip = parseIp(address);
  return ip ? !isPublicIp(ip) : true;
}

/** `localhost` and every `*.localhost` name (RFC 6761), with or without the root's trailing dot. */
function isLocalhostName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, "");
  return name === "localhost" || name.endsWith(".localhost");
}

/**
 * The reason a URL host is refused without asking DNS: a private literal IP or a localhost name.
 * Null for a public literal, and for any other name (which the DNS answer decides).
 */
export function refusedHostWithoutDns(hostname: string): string | null {
  if (isLocalhostName(hostname)) return hostname;
  const ip = parseIp(hostname);
  return ip && !isPublicIp(ip) ? hostname.replace(/^\[(.*)\]$/, "$1") : null;
}

export class BlockedAddressError extends Error {
  constructor(host: string, address: string) {
    super(`${host} resolves to ${address}, a private or reserved address`);
    this.name = "BlockedAddressError";
  }
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void;
type AllLookup = (
  hostname: string,
  options: dns.LookupAllOptions,
  callback: (error: NodeJS.ErrnoException | null, addresses: dns.LookupAddress[]) => void,
) => void;

/**
 * A `lookup` for http.request that refuses private addresses: the check happens on the address
 * the socket actually connects to, so a DNS answer that changes after configuration cannot slip by.
 * `resolve` is for tests.
 */
export function guardedLookup(allowPrivate: boolean, resolve: AllLookup = dns.lookup) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback) => {
    if (!allowPrivate && isLocalhostName(hostname))
      return callback(new BlockedAddressError(hostname, "loopback"), "", 4);
    resolve(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, "", 4);
      const list = addresses;
      const blocked = allowPrivate ? undefined : list.find((a) => isPrivateAddress(a.address));
      if (blocked) return callback(new BlockedAddressError(hostname, blocked.address), "", 4);
      if (options.all) return callback(null, list);
      const first = list[0];
      if (!first) return callback(new Error(`no address for ${hostname}`), "", 4);
      callback(null, first.address, first.family);
    });
  };
}

/** Which URL a refusal names: the field, and the URL in words ("The webhook URL"). */
type Named = { field: string; what: string };
const WEBHOOK_URL: Named = { field: "url", what: "The webhook URL" };

const privateUrl = (address: string, named: Named) =>
  new AppError("UNPROCESSABLE", `${named.what} points to ${address}, a private or reserved address.`, {
    details: [{ field: named.field, issue: "private, loopback, link-local or reserved addresses are not allowed" }],
  });

/**
 * Configuration-time check: the URL's host must be public, and a name must resolve to public
 * addresses only. A name that does not resolve is refused, unless `unresolved: "allow"` (a login
 * provider's issuer: the sign-in itself answers when it cannot be reached). `lookup` is for tests.
 */
export async function assertPublicUrl(
  url: string,
  allowPrivate: boolean,
  options: {
    lookup?: (host: string, options: { all: true }) => Promise<{ address: string }[]>;
    named?: Named;
    unresolved?: "refuse" | "allow";
  } = {},
): Promise<void> {
  if (allowPrivate) return;
  const named = options.named ?? WEBHOOK_URL;
  const hostname = new URL(url).hostname;
  const refused = refusedHostWithoutDns(hostname);
  if (refused) throw privateUrl(refused, named);
  if (parseIp(hostname)) return; // a public literal
  let addresses: string[];
  try {
    const lookup = options.lookup ?? ((host, o) => dns.promises.lookup(host, o));
    addresses = (await lookup(hostname, { all: true })).map((a) => a.address);
  } catch {
    if (options.unresolved === "allow") return;
    throw new AppError("UNPROCESSABLE", `${named.what}'s host ${hostname} does not resolve.`, {
      details: [{ field: named.field, issue: "host does not resolve" }],
    });
  }
  const blocked = addresses.find(isPrivateAddress);
  if (blocked) throw privateUrl(blocked, named);
}
