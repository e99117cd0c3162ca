/**
 * What the measurement's accuracy tests count (the project's corpus and the held-out one): the
 * counts behind the figures, for one language or more, and how a sentiment score reads as a tone.
 */
export type Tone = "positive" | "neutral" | "negative";

export class Tally {
  answers = 0;
  tp = 0;
  fp = 0;
  fn = 0;
  positionsRight = 0;
  positionsTotal = 0;
  toneRight = 0;
  toneTotal = 0;
  stanceRight = 0;
  stanceTotal = 0;
  citedRight = 0;

  add(other: Tally): void {
    for (const key of Object.keys(this) as (keyof Tally)[]) {
      const value = this[key];
      if (typeof value === "number") (this as Record<string, unknown>)[key] = value + (other[key] as number);
    }
  }

  get precision(): number {
    return ratio(this.tp, this.tp + this.fp);
  }
  get recall(): number {
    return ratio(this.tp, this.tp + this.fn);
  }
  get position(): number {
    return ratio(this.positionsRight, this.positionsTotal);
  }
  get sentiment(): number {
    return ratio(this.toneRight, this.toneTotal);
  }
  /** 1 when no stance was labelled (see `stanceTotal`). */
  get stance(): number {
    return ratio(this.stanceRight, this.stanceTotal);
  }
  get cited(): number {
    return ratio(this.citedRight, this.answers);
  }
}

function ratio(count: number, n: number): number {
  return n === 0 ? 1 : count / n;
}

/** The tone a sentiment score reads as: its sign, outside the neutral band of ±0.1. */
export function toneOf(score: number | null | undefined): Tone | "none" {
  if (score === null || score === undefined) return "none";
  if (score > 0.1) return "positive";
  if (score < -0.1) return "negative";
  return "neutral";
}
