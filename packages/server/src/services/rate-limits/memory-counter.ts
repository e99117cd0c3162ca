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

  async giveBack(key: string): Promise<void> {
    const state = await this.#limiter.get(key);
    if (state !== null && state.consumedPoints > 0) await this.#limiter.reward(key, 1);
  }

  async reset(key: string): Promise<void> {
    await this.#limiter.delete(key);
  }

  async close(): Promise<void> {}
}
