/**
 * Outgoing webhook URLs must not reach this server's private network: loopback, private ranges,
 * link-local (cloud metadata at 169.254.169.254), CGNAT, multicast, unspecified, and their IPv6
 * forms. Checked when an endpoint is configured and again at every connection (DNS can change
 * between the two), unless WEBHOOK_ALLOW_PRIVATE_URLS=true.
 */
import dns from "node:dns";
import net from "node:net";

import { AppError } from "../errors";

const V4_BLOCKS: [string, number][] = [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, cloud metadata
  ["172.16.0.0", 12],
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation
  ["192.168.0.0", 16],
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
];

function v4ToInt(ip: string): number {
  return ip.split(".").reduce((acc, part) => (acc << 8) + Number(part), 0) >>> 0;
}

function isPrivateV4(ip: string): boolean {
  const value = v4ToInt(ip);
  return V4_BLOCKS.some(([base, bits]) => {
    const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
    return (value & mask) === (v4ToInt(base) & mask);
  });
}

/** True for any address an outgoing webhook must not reach. */
export function isPrivateAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return isPrivateV4(address);
  if (family !== 6) return true; // not an IP at all: refuse
  const ip = address.toLowerCase().replace(/^\[|\]$/g, "");
  if (ip === "::" || ip === "::1") return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(ip) ?? /^::(\d+\.\d+\.\d+\.\d+)$/.exec(ip);
  if (mapped) return isPrivateV4(mapped[1]!);
  const first = parseInt(ip.split(":")[0] || "0", 16);
  if ((first & 0xfe00) === 0xfc00) return true; // fc00::/7 unique local
  if ((first & 0xffc0) === 0xfe80) return true; // fe80::/10 link-local
  if ((first & 0xff00) === 0xff00) return true; // ff00::/8 multicast
  if (ip.startsWith("64:ff9b:")) return true; // NAT64 can reach IPv4 private space
  if (ip.startsWith("2001:db8:")) return true; // documentation
  return false;
}

export class BlockedAddressError extends Error {
  constructor(host: string, address: string) {
    super(`${host} resolves to ${address}, a private or reserved address`);
    this.name = "BlockedAddressError";
  }
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http.request that refuses private addresses: the check happens on the address
 * the socket actually connects to, so a DNS answer that changes after configuration cannot slip by.
 */
export function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
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

/** Configuration-time check: the URL's host must resolve to public addresses only. */
export async function assertPublicUrl(url: string, allowPrivate: boolean): Promise<void> {
  if (allowPrivate) return;
  const host = new URL(url).hostname.replace(/^\[|\]$/g, "");
  let addresses: string[];
  if (net.isIP(host)) {
    addresses = [host];
  } else {
    try {
      addresses = (await dns.promises.lookup(host, { all: true })).map((a) => a.address);
    } catch {
      throw new AppError("UNPROCESSABLE", `The webhook host ${host} does not resolve.`, { details: [{ field: "url", issue: "host does not resolve" }] });
    }
  }
  const blocked = addresses.find(isPrivateAddress);
  if (blocked) {
    throw new AppError("UNPROCESSABLE", `The webhook URL points to ${blocked}, a private or reserved address.`, {
      details: [{ field: "url", issue: "private, loopback, link-local or reserved addresses are not allowed" }],
    });
  }
}
