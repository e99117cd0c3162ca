import { lookup } from "node:dns/promises";
import type { LookupFunction } from "node:net";
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
 * reserved, documentation and unspecified. An IPv6 address that carries an IPv4 address
 * (IPv4-mapped `::ffff:127.0.0.1`, IPv4-compatible `::127.0.0.1`, IPv4-translated, NAT64
 * `64:ff9b::/96`, 6to4 `2002::/16`, Teredo `2001::/32`) is judged by every IPv4 address it carries:
 * that is where its packets end up. NAT64's local-use prefix (`64:ff9b:1::/48`) is refused.
 */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  if (!ipaddr.isValid(bare)) return false;
  const parsed = ipaddr.parse(bare);
  if (parsed.kind() === "ipv4") return parsed.range() === "unicast";
  const v6 = parsed as ipaddr.IPv6;
  const carried = embeddedIpv4(v6);
  if (carried === null) return v6.range() === "unicast";
  return carried.length > 0 && carried.every((v4) => v4.range() === "unicast");
}

function ipv4Of(words: readonly number[], at: number): ipaddr.IPv4 {
  const high = words[at] ?? 0;
  const low = words[at + 1] ?? 0;
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

/**
 * The IPv4 addresses an IPv6 address carries, by the ranges that carry one; null when it is in
 * none of them; an empty list for a range refused whatever it carries.
 */
function embeddedIpv4(address: ipaddr.IPv6): ipaddr.IPv4[] | null {
  const w = address.parts;
  const zeros = (from: number, to: number) => w.slice(from, to).every((word) => word === 0);
  // ::/96 (IPv4-compatible, with :: and ::1 themselves), ::ffff:0:0/96 (mapped), ::ffff:0:0:0/96 (translated).
  if (zeros(0, 5) && (w[5] === 0 || w[5] === 0xffff)) return [ipv4Of(w, 6)];
  if (zeros(0, 4) && w[4] === 0xffff && w[5] === 0) return [ipv4Of(w, 6)];
  // NAT64: the well-known prefix carries the address in its last 32 bits; the local-use one is private.
  if (w[0] === 0x64 && w[1] === 0xff9b && zeros(2, 6)) return [ipv4Of(w, 6)];
  if (w[0] === 0x64 && w[1] === 0xff9b && w[2] === 1) return [];
  // 6to4: 2002:AABB:CCDD::/48 tunnels to AA.BB.CC.DD.
  if (w[0] === 0x2002) return [ipv4Of(w, 1)];
  // Teredo: 2001:0:SSSS:SSSS:flags:port:CCCC:CCCC, the server in clear, the client inverted.
  if (w[0] === 0x2001 && w[1] === 0) {
    const client = ipv4Of(
      w.map((word) => word ^ 0xffff),
      6,
    );
    return [ipv4Of(w, 2), client];
  }
  return null;
}

export function isIpLiteral(hostname: string): boolean {
  return ipaddr.isValid(hostname.replace(/^\[|\]$/g, ""));
}

/**
 * A `lookup` for an HTTP agent that connects only to addresses it checked: the host is resolved by
 * `resolver`, and unless `allowPrivate()` says so, a host with any address that is not public is
 * refused with the error `refused(hostname, address)` makes, so that DNS rebinding cannot reach
 * inside. Webhook deliveries, the website reader and workspaces' own engines connect through it.
 */
export function publicOnlyLookup(
  resolver: HostResolver,
  allowPrivate: () => boolean,
  refused: (hostname: string, address: string) => Error,
): LookupFunction {
  return (hostname, options, callback) => {
    resolver.resolve(hostname).then(
      (addresses) => {
        const blocked = allowPrivate() ? undefined : addresses.find((a) => !isPublicAddress(a));
        const first = addresses[0];
        if (blocked !== undefined) {
          callback(refused(hostname, blocked), "", 4);
        } else if (first === undefined) {
          callback(new Error(`${hostname} does not resolve`), "", 4);
        } else if ((options as { all?: boolean }).all === true) {
          (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(
            null,
            addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 })),
          );
        } else {
          callback(null, first, first.includes(":") ? 6 : 4);
        }
      },
      (error: Error) => callback(error, "", 4),
    );
  };
}
