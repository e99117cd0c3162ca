import { Redis } from "ioredis";
import { RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import type { Logger } from "../../lib/logger.ts";
import type { WindowCount, WindowCounter } from "./counter.ts";
import { MemoryWindowCounter, UNLIMITED_POINTS } from "./memory-counter.ts";

/**
 * Counts in Redis, so that every API process shares one count per key. When Redis cannot be
 * reached the count falls back to this process's memory (each process then allows the full limit
 * on its own) and the outage is logged once, when it starts and when it ends. See ADR 0008.
 */
export class RedisWindowCounter implements WindowCounter {
  readonly #client: Redis;
  readonly #limiter: RateLimiterRedis;
  readonly #fallback: MemoryWindowCounter;
  readonly #logger: Logger;
  #outage = false;

  constructor(url: string, windowSeconds: number, keyPrefix: string, logger: Logger) {
    this.#logger = logger;
    this.#client = new Redis(url, {
      // Fail fast instead of queueing commands while disconnected: a request must not wait on Redis.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: 1_000,
      commandTimeout: 500,
      retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
    });
    this.#client.on("error", (error: Error) => this.#down(error));
    this.#limiter = new RateLimiterRedis({
      storeClient: this.#client,
      points: UNLIMITED_POINTS,
      duration: windowSeconds,
      keyPrefix,
      rejectIfRedisNotReady: true,
    });
    this.#fallback = new MemoryWindowCounter(windowSeconds, keyPrefix);
  }

  #down(error: unknown): void {
    if (this.#outage) return;
    this.#outage = true;
    this.#logger.warn(
      { err: error instanceof Error ? error.message : String(error) },
      "Redis unreachable: rate limits are counted per process until it is back",
    );
  }

  async hit(key: string): Promise<WindowCount> {
    try {
      const result = await this.#limiter.consume(key, 1);
      if (this.#outage) {
        this.#outage = false;
        this.#logger.warn("Redis is back: rate limits are shared again");
      }
      return { count: result.consumedPoints, msBeforeReset: result.msBeforeNext };
    } catch (error) {
      if (error instanceof RateLimiterRes) throw error; // cannot happen with UNLIMITED_POINTS
      this.#down(error);
      return this.#fallback.hit(key);
    }
  }

  /** Whether counts currently come from the per-process fallback. */
  get degraded(): boolean {
    return this.#outage;
  }

  async close(): Promise<void> {
    this.#client.disconnect();
  }
}
