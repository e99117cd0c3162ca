/** Bounds how many requests run at once; waiters are served in order. */
export class Semaphore {
  #available: number;
  readonly #waiters: (() => void)[] = [];

  constructor(readonly size: number) {
    this.#available = size;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#available > 0) this.#available--;
    else await new Promise<void>((resolve) => this.#waiters.push(resolve));
    try {
      return await task();
    } finally {
      const next = this.#waiters.shift();
      if (next === undefined) this.#available++;
      else next();
    }
  }
}
