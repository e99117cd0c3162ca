import type { FastifyRequest } from "fastify";
import type { WindowCounter } from "../services/rate-limits/counter.ts";
import type { CounterStore } from "../services/rate-limits/store.ts";

/**
 * The limits of the routes anyone can call without a key or a session (docs/security.md), per
 * client address, in the shared store: the dashboard's public routes (first-run state, invitation
 * previews), its sign-up, and the links of e-mails. Every request counts, refused or not.
 */
export const PUBLIC_ROUTE_LIMITS = {
  /** The dashboard's public routes and e-mail links, like an unkeyed request to /v1. */
  perAddressPerMinute: 60,
  /** Sign-ups: each hashes a password (32 MiB, memory-hard), and creates an account. */
  signUpsPerAddressPer10Minutes: 10,
} as const;

/** A count per client address in fixed windows, refused past `limit`. */
export class AddressLimit {
  readonly #counter: WindowCounter;

  constructor(
    store: CounterStore,
    kind: string,
    readonly limit: number,
    windowSeconds: number,
  ) {
    this.#counter = store.counter(kind, windowSeconds);
  }

  /** Counts the request; 0 when it may go on, else the seconds until the window ends. */
  async wait(request: FastifyRequest): Promise<number> {
    const count = await this.#counter.hit(request.ip);
    return count.count <= this.limit ? 0 : Math.max(1, Math.ceil(count.msBeforeReset / 1000));
  }
}
