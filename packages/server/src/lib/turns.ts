/**
 * Lets its callers go one per turn of the event loop, in the order they asked: work queued here
 * (measuring an answer, writing a group of them) runs between rounds of I/O instead of all at once,
 * so the engine responses that arrive meanwhile, and the requests they free, do not wait behind a
 * whole burst's CPU (issue 16).
 */
export class OnePerTurn {
  #waiting: (() => void)[] = [];
  #scheduled = false;

  /** Resolves in a later turn of the event loop, after everything that asked before. */
  wait(): Promise<void> {
    return new Promise((resolve) => {
      this.#waiting.push(resolve);
      this.#schedule();
    });
  }

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    // An immediate set from an immediate runs in the next turn, after that turn's I/O.
    setImmediate(() => {
      this.#scheduled = false;
      this.#waiting.shift()?.();
      if (this.#waiting.length > 0) this.#schedule();
    });
  }
}
