/**
 * At most `running` tasks at once and `waiting` more in line (served in order); a task that finds
 * the line full is not run at all. For work a public request can start and a process must not
 * pile up: rendering a PDF for anyone who holds a shared link.
 */
export class Gate {
  #running = 0;
  readonly #line: (() => void)[] = [];

  constructor(
    readonly running: number,
    readonly waiting: number,
  ) {}

  /** `task`'s result, or `{ full: true }` without running it when the line is full. */
  async run<T>(task: () => Promise<T>): Promise<{ full: false; value: T } | { full: true }> {
    if (this.#running >= this.running) {
      if (this.#line.length >= this.waiting) return { full: true };
      await new Promise<void>((resolve) => this.#line.push(resolve));
    } else {
      this.#running++;
    }
    try {
      return { full: false, value: await task() };
    } finally {
      const next = this.#line.shift();
      // The slot passes to the next in line, or is freed.
      if (next === undefined) this.#running--;
      else next();
    }
  }
}
