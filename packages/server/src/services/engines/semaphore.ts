/**
 * Bounds how many requests run at once; waiters are served in order. The bound adapts to the
 * vendor (additive increase, multiplicative decrease, as TCP does): a request the vendor refused
 * for its rate (429) halves it, down to 1; every `limit` requests in a row that were not refused
 * raise it by one, up to the configured `ceiling`. So an engine runs as wide as the operator
 * allows while the vendor accepts it, and backs off at once when it does not.
 */
export class Semaphore {
  #limit: number;
  #inFlight = 0;
  #streak = 0;
  readonly #waiters: (() => void)[] = [];

  constructor(readonly ceiling: number) {
    this.#limit = ceiling;
  }

  /** Requests allowed at once now. */
  get limit(): number {
    return this.#limit;
  }

  /** Runs `task` within the bound; `refused(result)` says whether the vendor refused it for its rate. */
  async run<T>(task: () => Promise<T>, refused: (result: T) => boolean = () => false): Promise<T> {
    if (this.#inFlight < this.#limit) this.#inFlight++;
    else await new Promise<void>((resolve) => this.#waiters.push(resolve));
    let result: T | undefined;
    try {
      result = await task();
      return result;
    } finally {
      if (result !== undefined && refused(result)) this.#decrease();
      else this.#increase();
      this.#release();
    }
  }

  #decrease(): void {
    this.#limit = Math.max(1, Math.floor(this.#limit / 2));
    this.#streak = 0;
  }

  #increase(): void {
    if (this.#limit >= this.ceiling) return;
    this.#streak++;
    if (this.#streak >= this.#limit) {
      this.#limit++;
      this.#streak = 0;
    }
  }

  /** A finished request's slot goes to the next waiter while the bound allows it. */
  #release(): void {
    this.#inFlight--;
    while (this.#inFlight < this.#limit) {
      const next = this.#waiters.shift();
      if (next === undefined) return;
      this.#inFlight++;
      next();
    }
  }
}
