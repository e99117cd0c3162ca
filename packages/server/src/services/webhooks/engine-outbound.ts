import { Agent as HttpAgent } from "node:http";
import { Agent as HttpsAgent } from "node:https";
import type { LookupFunction } from "node:net";
import type { EngineOutbound } from "../engines/outbound.ts";
import { vendorFetchVia } from "../engines/vendor-fetch.ts";
import { isIpLiteral, isPublicAddress } from "./addresses.ts";
import { checkTargetUrl, type TargetPolicy } from "./target.ts";

/**
 * The webhooks' outbound rules for the engines workspaces add (Settings → Engines): the address is
 * checked as a subscription's is when it is saved, and every connection resolves the host itself and
 * connects only to an address it checked, as deliveries do (transport.ts), so DNS rebinding cannot
 * reach inside. `policy` is read at each use.
 */
export function engineOutbound(policy: TargetPolicy): EngineOutbound {
  const lookup: LookupFunction = (hostname, options, callback) => {
    policy.resolver.resolve(hostname).then(
      (addresses) => {
        const blocked = addresses.find((address) => !isPublicAddress(address));
        const first = addresses[0];
        if (blocked !== undefined) callback(new Error(`refused: ${hostname} is not a public address`), "", 4);
        else if (first === undefined) callback(new Error(`${hostname} does not resolve`), "", 4);
        else if ((options as { all?: boolean }).all === true) {
          (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(
            null,
            addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 })),
          );
        } else callback(null, first, first.includes(":") ? 6 : 4);
      },
      (error: Error) => callback(error, "", 4),
    );
  };
  let guarded: typeof fetch | null = null;
  let open: typeof fetch | null = null;
  return {
    checkUrl: (raw, field) => checkTargetUrl(raw, policy, field),
    fetch: () => {
      // Private addresses allowed (tests, an operator's own network): no address rule, the same reply cap.
      if (policy.allowPrivate) {
        open ??= vendorFetchVia(
          {
            "http:": new HttpAgent({ keepAlive: true, timeout: 4_000 }),
            "https:": new HttpsAgent({ keepAlive: true, timeout: 4_000 }),
          },
          () => null,
        );
        return open;
      }
      // Idle connections close after 4 s, as vendorFetch's do.
      guarded ??= vendorFetchVia(
        {
          "http:": new HttpAgent({ keepAlive: true, timeout: 4_000, lookup }),
          "https:": new HttpsAgent({ keepAlive: true, timeout: 4_000, lookup }),
        },
        (url) => {
          // An IP literal is connected to without a lookup: check it here.
          const host = url.hostname.replace(/^\[|\]$/g, "");
          return isIpLiteral(host) && !isPublicAddress(host) ? `${host} is not a public address` : null;
        },
      );
      return guarded;
    },
  };
}
