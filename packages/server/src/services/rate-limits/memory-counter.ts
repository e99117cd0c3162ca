import { RateLimiterMemory } from "rate-limiter-flexible";
import type { WindowCount, WindowCounter } from "./counter.ts";

/** Never refuse inside the library: the limit is the caller's, per workspace plan. */
export const UNLIMITED_POINTS = 1_000_000_000;

/** Counts in this process's memory (rate-limiter-flexible's memory store). */
export class MemoryWindowCounter implements WindowCounter {
  readonly #limiter: RateLimiterMemory;

  constructor(windowSeconds: number, keyPrefix: string) {
    this.#limiter = new RateLimiterMemory({ points: UNLIMITED_POINTS, duration: windowSeconds, keyPrefix });
  }

  async hit(key: string): Promise<WindowCount> {
    const result = await this.#limiter.consume(key, 1);
    return { count: result.consumedPoints, msBeforeReset: result.msBeforeNext };
  }

  /**
   * Takes `count` as `key`'s count for the next `msBeforeReset` ms, unless it already counts more:
   * the shared count last seen, from which a fallback goes on counting instead of from zero.
   */
  async remember(key: string, count: number, msBeforeReset: number): Promise<void> {
    const state = await this.#limiter.get(key);
    if (state !== null && state.consumedPoints >= count) return;
    await this.#limiter.set(key, count, Math.max(msBeforeReset, 1) / 1000);
  }

  async giveBack(key: string): Promise<void> {
    const state = await this.#limiter.get(key);
    if (state !== null && state.consumedPoints > 0) await this.#limiter.reward(key, 1);
  }

  async reset(key: string): Promise<void> {
    await this.#limiter.delete(key);
  }

  async close(): Promise<void> {}
}
