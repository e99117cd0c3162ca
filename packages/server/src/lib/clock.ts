/** The only source of "now" for services: tests move a ManualClock instead of sleeping. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = {
  now: () => new Date(),
};

/** A clock that stands still until told to move. */
export class ManualClock implements Clock {
  #ms: number;

  constructor(start: Date | number = Date.now()) {
    this.#ms = typeof start === "number" ? start : start.getTime();
  }

  now(): Date {
    return new Date(this.#ms);
  }

  set(at: Date | number): void {
    this.#ms = typeof at === "number" ? at : at.getTime();
  }

  advance(ms: number): void {
    this.#ms += ms;
  }
}
