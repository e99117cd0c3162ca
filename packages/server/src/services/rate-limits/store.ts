import type { Logger } from "../../lib/logger.ts";
import type { WindowCounter } from "./counter.ts";
import { MemoryWindowCounter } from "./memory-counter.ts";
import { RedisLink, RedisWindowCounter } from "./redis-counter.ts";

/**
 * Where a process keeps its window counts: Redis when REDIS_URL is set, so that every process
 * shares them, else this process's memory. Plan rate limits, sign-in lockouts and the limits of
 * public routes all count here, through one connection.
 */
export class CounterStore {
  readonly #redis: RedisLink | null;
  readonly #prefix: string;

  constructor(logger: Logger, options: { redisUrl?: string | null; keyPrefix?: string } = {}) {
    this.#redis = options.redisUrl ? new RedisLink(options.redisUrl, logger) : null;
    this.#prefix = options.keyPrefix ?? "sightline:rl";
  }

  /** Counts of `kind` in fixed windows of `windowSeconds`. */
  counter(kind: string, windowSeconds: number): WindowCounter {
    const prefix = `${this.#prefix}:${kind}`;
    return this.#redis === null
      ? new MemoryWindowCounter(windowSeconds, prefix)
      : new RedisWindowCounter(this.#redis, windowSeconds, prefix);
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
    await this.#redis?.close();
  }
}
