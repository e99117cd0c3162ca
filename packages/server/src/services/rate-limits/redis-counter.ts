import { Redis } from "ioredis";
import { RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import type { Logger } from "../../lib/logger.ts";
import type { WindowCount, WindowCounter } from "./counter.ts";
import { MemoryWindowCounter, UNLIMITED_POINTS } from "./memory-counter.ts";

/**
 * One Redis connection for a process's counters, and whether Redis is currently out. The outage is
 * logged once when it starts and once when it ends, however many requests fall back meanwhile.
 */
export class RedisLink {
  readonly client: Redis;
  readonly #logger: Logger;
  #outage = false;

  constructor(url: string, logger: Logger) {
    this.#logger = logger;
    this.client = new Redis(url, {
      // Fail fast instead of queueing commands while disconnected: a request must not wait on Redis.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: 1_000,
      commandTimeout: 500,
      retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
    });
    this.client.on("error", (error: Error) => this.down(error));
  }

  get degraded(): boolean {
    return this.#outage;
  }

  /**
   * Resolves once connected, refused, or after `timeoutMs` (the outage is then logged and counting
   * starts per process), so that a process does not serve its first requests on local counts needlessly.
   */
  async ready(timeoutMs = 2_000): Promise<void> {
    if (this.client.status === "ready") return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.client.off("ready", done);
        this.client.off("error", done);
        resolve();
      };
      const timer = setTimeout(() => {
        this.down(new Error(`no connection after ${timeoutMs} ms`));
        done();
      }, timeoutMs);
      // A refused connection is an answer too: no need to wait out the timeout.
      this.client.once("ready", done);
      this.client.once("error", done);
    });
  }

  down(error: unknown): void {
    if (this.#outage) return;
    this.#outage = true;
    this.#logger.warn(
      { err: error instanceof Error ? error.message : String(error) },
      "Redis unreachable: rate limits are counted per process until it is back",
    );
  }

  up(): void {
    if (!this.#outage) return;
    this.#outage = false;
    this.#logger.warn("Redis is back: rate limits are shared again");
  }

  async close(): Promise<void> {
    this.client.disconnect();
  }
}

/**
 * Counts in Redis, so that every API process shares one count per key. When Redis cannot be
 * reached the count falls back to this process's memory, from the last count this process saw in
 * Redis (each process then allows the rest of the limit on its own). See ADR 0008.
 */
export class RedisWindowCounter implements WindowCounter {
  readonly #link: RedisLink;
  readonly #limiter: RateLimiterRedis;
  readonly #fallback: MemoryWindowCounter;

  constructor(link: RedisLink, windowSeconds: number, keyPrefix: string) {
    this.#link = link;
    this.#limiter = new RateLimiterRedis({
      storeClient: link.client,
      points: UNLIMITED_POINTS,
      duration: windowSeconds,
      keyPrefix,
      rejectIfRedisNotReady: true,
    });
    this.#fallback = new MemoryWindowCounter(windowSeconds, keyPrefix);
  }

  async hit(key: string): Promise<WindowCount> {
    try {
      const result = await this.#limiter.consume(key, 1);
      this.#link.up();
      // Should Redis miss the next hit (a command timing out while the event loop stalls), this
      // process goes on from the shared count, not from zero: a sign-in lockout stays a lockout.
      await this.#fallback.remember(key, result.consumedPoints, result.msBeforeNext);
      return { count: result.consumedPoints, msBeforeReset: result.msBeforeNext };
    } catch (error) {
      if (error instanceof RateLimiterRes) throw error; // cannot happen with UNLIMITED_POINTS
      this.#link.down(error);
      return this.#fallback.hit(key);
    }
  }

  async giveBack(key: string): Promise<void> {
    try {
      const state = await this.#limiter.get(key);
      if (state !== null && state.consumedPoints > 0) await this.#limiter.reward(key, 1);
    } catch (error) {
      this.#link.down(error);
      await this.#fallback.giveBack(key);
    }
  }

  async reset(key: string): Promise<void> {
    await this.#fallback.reset(key);
    try {
      await this.#limiter.delete(key);
    } catch (error) {
      this.#link.down(error);
    }
  }

  async close(): Promise<void> {}
}
