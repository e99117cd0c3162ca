import { RateLimiterMemory } from "rate-limiter-flexible";

/** Wrong passwords allowed per account in a window; the next attempt is refused until it ends. */
const FAILURES_PER_WINDOW = 10;
const FAILURE_WINDOW_SECONDS = 60;

/**
 * Failed sign-ins counted per account (the authentication library counts per address). Kept in
 * this process's memory: a locked-out attacker gains nothing by waiting for a restart, since the
 * window is a minute. A successful sign-in or a password reset clears the account's count.
 */
export class LoginLimits {
  readonly #failures = new RateLimiterMemory({
    points: FAILURES_PER_WINDOW,
    duration: FAILURE_WINDOW_SECONDS,
    keyPrefix: "sign-in",
  });

  static key(email: unknown): string {
    return typeof email === "string" ? email.trim().toLowerCase() : "";
  }

  /** Seconds until the account may try again, or 0 when it may now. */
  async blockedFor(email: unknown): Promise<number> {
    const state = await this.#failures.get(LoginLimits.key(email));
    return state !== null && state.consumedPoints >= FAILURES_PER_WINDOW ? Math.ceil(state.msBeforeNext / 1000) : 0;
  }

  async failed(email: unknown): Promise<void> {
    await this.#failures.penalty(LoginLimits.key(email), 1);
  }

  async clear(email: unknown): Promise<void> {
    await this.#failures.delete(LoginLimits.key(email));
  }
}
