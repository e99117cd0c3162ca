import { Agent as HttpAgent } from "node:http";
import { Agent as HttpsAgent } from "node:https";
import { isIpLiteral, isPublicAddress, publicOnlyLookup } from "../../lib/addresses.ts";
import type { EngineOutbound } from "../engines/outbound.ts";
import { vendorFetchVia } from "../engines/vendor-fetch.ts";
import { checkTargetUrl, type TargetPolicy } from "./target.ts";

/**
 * The webhooks' outbound rules for the engines workspaces add (Settings → Engines): the address is
 * checked as a subscription's is when it is saved, and every connection resolves the host itself and
 * connects only to an address it checked, as deliveries do (transport.ts), so DNS rebinding cannot
 * reach inside. `policy` is read at each use.
 */
export function engineOutbound(policy: TargetPolicy): EngineOutbound {
  const lookup = publicOnlyLookup(
    { resolve: (hostname) => policy.resolver.resolve(hostname) },
    () => false,
    (hostname) => new Error(`refused: ${hostname} is not a public address`),
  );
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
