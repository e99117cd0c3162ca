import { type Clock, systemClock } from "../../lib/clock.ts";
import type { Logger } from "../../lib/logger.ts";
import type { WindowCounter } from "./counter.ts";
import { MemoryWindowCounter } from "./memory-counter.ts";
import { RedisLink, RedisWindowCounter } from "./redis-counter.ts";

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
  readonly #redis: RedisLink | null;
  readonly #clock: Clock;

  constructor(logger: Logger, options: RateLimitOptions = {}) {
    this.#clock = options.clock ?? systemClock;
    this.windowSeconds = options.windowSeconds ?? 60;
    const prefix = options.keyPrefix ?? "sightline:rl";
    const redis = options.redisUrl ? new RedisLink(options.redisUrl, logger) : null;
    this.#redis = redis;
    const counter = (kind: string) =>
      redis === null
        ? new MemoryWindowCounter(this.windowSeconds, `${prefix}:${kind}`)
        : new RedisWindowCounter(redis, this.windowSeconds, `${prefix}:${kind}`);
    this.#workspaces = counter("ws");
    this.#addresses = counter("ip");
  }

  async hit(subject: RateSubject): Promise<RateDecision> {
    const [counter, key, limit] =
      "workspaceId" in subject
        ? [this.#workspaces, subject.workspaceId, subject.limit]
        : [this.#addresses, subject.address, ANONYMOUS_LIMIT];
    const { count, msBeforeReset } = await counter.hit(key);
    const retryAfter = Math.max(1, Math.ceil(msBeforeReset / 1000));
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
    await this.#redis?.ready();
  }

  /** True while counts come from the per-process fallback because Redis is out. */
  get degraded(): boolean {
    return this.#redis?.degraded ?? false;
  }

  async close(): Promise<void> {
    await Promise.all([this.#workspaces.close(), this.#addresses.close()]);
    await this.#redis?.close();
  }
}
