import { lookup } from "node:dns/promises";
import ipaddr from "ipaddr.js";

/** Resolves a host name to its addresses: the system resolver, or a test one. */
export interface HostResolver {
  resolve(hostname: string): Promise<string[]>;
}

export const systemResolver: HostResolver = {
  async resolve(hostname) {
    const results = await lookup(hostname, { all: true, verbatim: true });
    return results.map((r) => r.address);
  },
};

/**
 * Whether an IP address is a public unicast one. Everything else is refused as a webhook target:
 * loopback, private, link-local (cloud metadata), carrier-grade NAT, multicast, broadcast,
 * reserved, documentation, unspecified, and IPv6 ranges that embed or tunnel to IPv4 (6to4, Teredo,
 * NAT64). IPv4-mapped IPv6 (`::ffff:127.0.0.1`) is judged as the IPv4 address it carries.
 */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  if (!ipaddr.isValid(bare)) return false;
  return ipaddr.process(bare).range() === "unicast";
}

export function isIpLiteral(hostname: string): boolean {
  return ipaddr.isValid(hostname.replace(/^\[|\]$/g, ""));
}
