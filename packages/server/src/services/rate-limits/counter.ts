/** Hits counted in fixed windows: the storage behind rate limits. */
export interface WindowCounter {
  /** Adds one hit for `key` in its current window (which starts at the key's first hit). */
  hit(key: string): Promise<WindowCount>;
  /** Takes one hit of `key` back (an attempt that turned out legitimate); never below zero. */
  giveBack(key: string): Promise<void>;
  /** Forgets `key`'s hits in the current window. */
  reset(key: string): Promise<void>;
  close(): Promise<void>;
}

export interface WindowCount {
  /** Hits in the current window, this one included. */
  count: number;
  /** Milliseconds until the window ends and the count starts again from zero. */
  msBeforeReset: number;
}
