import type { Static } from "typebox";
import type { Proportion } from "../measurement/aggregate.ts";
import type { CountsSchema, ProjectMetricsSchema, SliceSchema } from "./schemas.ts";

/** The sums a figure is computed from (one `result_rollups` row, or many added up). */
export type Counts = Static<typeof CountsSchema>;

/** A set of answers: the brand's counts and figures, and each competitor's. */
export type Slice = Static<typeof SliceSchema>;

type Change = Static<typeof ProjectMetricsSchema>["changes"]["visibility"];

import { compareIntervals, proportion } from "../measurement/aggregate.ts";

export const COUNT_NAMES: readonly (keyof Counts)[] = [
  "answers",
  "mentioned",
  "cited",
  "with_citations",
  "position_sum",
  "position_count",
  "sentiment_sum",
  "sentiment_count",
  "citations",
  "brand_citations",
  "score_sum",
];

export function zero(): Counts {
  return Object.fromEntries(COUNT_NAMES.map((name) => [name, 0])) as unknown as Counts;
}

export function add(into: Counts, more: Counts): Counts {
  for (const name of COUNT_NAMES) into[name] += Number(more[name]);
  return into;
}

/**
 * Rounded half up at `digits` decimals, after the float noise of sums is dropped (12 significant
 * digits): a mean that is exactly on a half (72.745) rounds the same way whatever order its sum
 * was added in, instead of down when the sum came out a last bit short.
 */
const round = (value: number, digits = 4) => Math.round(Number((value * 10 ** digits).toPrecision(12))) / 10 ** digits;
const ratio = (a: number, b: number) => (b === 0 ? null : round(a / b));

/**
 * Figures from counts, as DESIGN.md §3 defines them: share of voice is the brand's mentioning
 * answers over all tracked brands' mentioning answers, each counted per brand.
 */
export function slice(counted: Counts, competitors: Map<string, Counts>, names: readonly string[]): Slice {
  // Sums of fractions depend on the order they were added in by a last bit: rounded away, so that
  // the same answers give the same counts however they were counted.
  const brand = { ...counted, sentiment_sum: round(counted.sentiment_sum, 6), score_sum: round(counted.score_sum, 6) };
  const everyone = brand.mentioned + [...competitors.values()].reduce((sum, c) => sum + c.mentioned, 0);
  return {
    counts: brand,
    figures: {
      visibility: proportion(brand.mentioned, brand.answers),
      share_of_voice: ratio(brand.mentioned, everyone),
      average_position: ratio(brand.position_sum, brand.position_count),
      sentiment_score:
        brand.sentiment_count === 0 ? null : round((brand.sentiment_sum / brand.sentiment_count / 2 + 0.5) * 100, 2),
      citation_rate: proportion(brand.cited, brand.with_citations),
      visibility_score: brand.answers === 0 ? null : round(brand.score_sum / brand.answers, 2),
    },
    competitors: names.map((name) => {
      const counts = competitors.get(name) ?? zero();
      return {
        name,
        mentioned: counts.mentioned,
        visibility: proportion(counts.mentioned, brand.answers),
        share_of_voice: ratio(counts.mentioned, everyone),
        average_position: ratio(counts.position_sum, counts.position_count),
      };
    }),
  };
}

export function change(current: number | null, previous: number | null, intervals?: [Proportion, Proportion]): Change {
  return {
    current,
    previous,
    delta: current === null || previous === null ? null : round(current - previous),
    significant: intervals === undefined ? null : compareIntervals(intervals[0], intervals[1]) !== "overlap",
  };
}
