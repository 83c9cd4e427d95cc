/**
 * The part of a caller's address that per-address limits count (rate limits, live streams per
 * client). An IPv4 address counts whole. An IPv6 address counts by its /64: that is one
 * subscriber's network (RFC 6177, and what providers hand out), inside which a host may take any
 * of 2^64 addresses, so a limit on the whole address would bind nobody. An IPv4 address written
 * as IPv6 (`::ffff:203.0.113.9`, as a dual-stack socket reports it) counts as that IPv4 address.
 * Anything else (the "untrusted" and "unknown" stand-ins, a forwarded value that is no address)
 * counts as it is, cut to 64 characters.
 */
import { isIPv4, isIPv6 } from "node:net";

export function addressBucket(address: string): string {
  let ip = address.trim();
  // "[2001:db8::1]" or "[2001:db8::1]:443" from a forwarded header, and a zone id ("fe80::1%eth0").
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(ip);
  if (bracketed) ip = bracketed[1]!;
  ip = ip.replace(/%.*$/, "");
  if (isIPv4(ip)) return ip;
  if (!isIPv6(ip)) return address.trim().slice(0, 64);
  const groups = ipv6Groups(ip.toLowerCase());
  const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
  if (mapped) return `${groups[6]! >> 8}.${groups[6]! & 255}.${groups[7]! >> 8}.${groups[7]! & 255}`;
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(":")}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a trailing dotted IPv4 read). */
function ipv6Groups(ip: string): number[] {
  let text = ip;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes("::") ? text.split("::") : [text, undefined];
  const parse = (part: string | undefined) => (part ? part.split(":").map((g) => parseInt(g, 16)) : []);
  const front = parse(head);
  const back = parse(tail);
  return tail === undefined ? front : [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
}
