import { type Clock, systemClock } from "../../lib/clock.ts";
import type { Logger } from "../../lib/logger.ts";
import { rateLimitRefusals } from "../../lib/metrics.ts";
import type { WindowCounter } from "./counter.ts";
import { CounterStore } from "./store.ts";

/** Requests per window allowed to a client address that has no valid key (DESIGN.md §2). */
export const ANONYMOUS_LIMIT = 60;

export type RateSubject = { workspaceId: string; limit: number } | { address: string };

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds at which the window resets. */
  resetAt: number;
  /** Seconds until then, at least 1. */
  retryAfter: number;
}

export interface RateLimitOptions {
  /**
   * Real time, whatever clock the services run on: windows are the store's TTLs (Redis expires
   * keys on its own clock), so the reset time reported must be on the same clock.
   */
  clock?: Clock;
  windowSeconds?: number;
  /** Where counts are kept; by default a store of its own on `redisUrl` (or memory). */
  store?: CounterStore;
  redisUrl?: string | null;
  keyPrefix?: string;
}

/**
 * Fixed-window rate limits: per workspace (all its keys share the plan's allowance) and, for
 * requests without a valid key, per client address. Every hit counts, refused or not.
 */
export class RateLimits {
  readonly windowSeconds: number;
  readonly #workspaces: WindowCounter;
  readonly #addresses: WindowCounter;
  readonly #store: CounterStore;
  /** Whether the store is this instance's own, closed with it. */
  readonly #ownStore: boolean;
  readonly #clock: Clock;

  constructor(logger: Logger, options: RateLimitOptions = {}) {
    this.#clock = options.clock ?? systemClock;
    this.windowSeconds = options.windowSeconds ?? 60;
    this.#ownStore = options.store === undefined;
    this.#store =
      options.store ??
      new CounterStore(logger, {
        redisUrl: options.redisUrl ?? null,
        ...(options.keyPrefix === undefined ? {} : { keyPrefix: options.keyPrefix }),
      });
    this.#workspaces = this.#store.counter("ws", this.windowSeconds);
    this.#addresses = this.#store.counter("ip", this.windowSeconds);
  }

  async hit(subject: RateSubject): Promise<RateDecision> {
    const [counter, key, limit] =
      "workspaceId" in subject
        ? [this.#workspaces, subject.workspaceId, subject.limit]
        : [this.#addresses, subject.address, ANONYMOUS_LIMIT];
    const { count, msBeforeReset } = await counter.hit(key);
    const retryAfter = Math.max(1, Math.ceil(msBeforeReset / 1000));
    if (count > limit) rateLimitRefusals.inc({ subject: "workspaceId" in subject ? "workspace" : "address" });
    return {
      allowed: count <= limit,
      limit,
      remaining: Math.max(0, limit - count),
      resetAt: Math.ceil((this.#clock.now().getTime() + msBeforeReset) / 1000),
      retryAfter,
    };
  }

  /** Waits (briefly) for the shared store, if there is one. */
  async ready(): Promise<void> {
    await this.#store.ready();
  }

  /** True while counts come from the per-process fallback because Redis is out. */
  get degraded(): boolean {
    return this.#store.degraded;
  }

  async close(): Promise<void> {
    await Promise.all([this.#workspaces.close(), this.#addresses.close()]);
    if (this.#ownStore) await this.#store.close();
  }
}
