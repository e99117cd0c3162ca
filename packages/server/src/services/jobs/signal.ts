/**
 * Wakes a waiting worker at once when a job is enqueued in this process (after its transaction
 * commits), or when a PostgreSQL NOTIFY says another process enqueued one. Polling is the fallback.
 */
export class JobSignal {
  #waiters: (() => void)[] = [];
  #pending = false;

  wake(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    if (waiters.length === 0) this.#pending = true;
    for (const resolve of waiters) resolve();
  }

  /** Resolves on the next wake (or at once if one came since the last wait), or after `ms`. */
  wait(ms: number): Promise<void> {
    if (this.#pending) {
      this.#pending = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      // Not unref'd: a waiting worker is what keeps a `sightline worker` process alive.
      const timer = setTimeout(done, ms);
      const waiters = this.#waiters;
      function done() {
        clearTimeout(timer);
        const index = waiters.indexOf(done);
        if (index >= 0) waiters.splice(index, 1);
        resolve();
      }
      waiters.push(done);
    });
  }
}
