import type { WindowCounter } from "../rate-limits/counter.ts";
import type { CounterStore } from "../rate-limits/store.ts";

/** Password checks allowed per account, and per client address, in a window; the rest are refused. */
const SIGN_IN_ATTEMPTS_PER_WINDOW = 10;
const WINDOW_SECONDS = 60;

/**
 * Sign-in attempts, counted per account and per client address in the shared store (Redis when
 * configured, so that every API process counts together). An attempt is counted BEFORE its
 * password is checked, atomically, and given back when it succeeds: however many arrive at once,
 * at most ten passwords a minute are checked for one account, and ten from one address. A password
 * reset clears the account's count.
 */
export class LoginLimits {
  readonly #accounts: WindowCounter;
  readonly #addresses: WindowCounter;

  constructor(store: CounterStore) {
    this.#accounts = store.counter("sign-in:account", WINDOW_SECONDS);
    this.#addresses = store.counter("sign-in:address", WINDOW_SECONDS);
  }

  static key(email: unknown): string {
    return typeof email === "string" ? email.trim().toLowerCase() : "";
  }

  /**
   * Counts one attempt for the account and the address; 0 when its password may be checked, else
   * the seconds until the window ends (the attempt is refused, and stays counted).
   */
  async take(email: unknown, address: string | null): Promise<number> {
    const [account, from] = await Promise.all([
      this.#accounts.hit(LoginLimits.key(email)),
      address === null ? null : this.#addresses.hit(address),
    ]);
    const over = [account, from].filter((count) => count !== null && count.count > SIGN_IN_ATTEMPTS_PER_WINDOW);
    return over.length === 0 ? 0 : Math.max(1, ...over.map((count) => Math.ceil((count?.msBeforeReset ?? 0) / 1000)));
  }

  /** A sign-in that succeeded: its attempt was no guess, and is given back. */
  async succeeded(email: unknown, address: string | null): Promise<void> {
    await Promise.all([
      this.#accounts.giveBack(LoginLimits.key(email)),
      address === null ? undefined : this.#addresses.giveBack(address),
    ]);
  }

  async clear(email: unknown): Promise<void> {
    await this.#accounts.reset(LoginLimits.key(email));
  }
}
