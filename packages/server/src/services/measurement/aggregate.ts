import type { Static } from "typebox";
import type { ProportionSchema, SummarySchema } from "./schemas.ts";
/** What each answer contributes to an aggregate: counts, never ratios, so sums stay exact. */
export interface AnswerCounts {
  mentioned: boolean;
  position: number | null;
  sentiment: number | null;
  score: number;
  citations: { domain: string; brand: boolean }[];
  competitors: { name: string; mentioned: boolean; position: number | null }[];
}

/** A share with its denominator, numerator and Wilson 95% interval. */
export type Proportion = Static<typeof ProportionSchema>;

/** Aggregates over a set of answers (DESIGN.md §3). */
export type Summary = Static<typeof SummarySchema>;

const Z = 1.959963984540054;

/**
 * Rounded half up at `digits` decimals after the float noise of sums is dropped (12 significant
 * digits), exactly as the analytics' figures are (analytics/figures.ts): the same answers give the
 * same number on the Overview, in an analysis and in its report.
 */
function round(value: number, digits = 4): number {
  return Math.round(Number((value * 10 ** digits).toPrecision(12))) / 10 ** digits;
}

/** Wilson score interval for k successes in n trials, 95%. */
function wilson(count: number, n: number): { low: number; high: number } | null {
  if (n === 0) return null;
  const p = count / n;
  const z2 = Z * Z;
  const center = (p + z2 / (2 * n)) / (1 + z2 / n);
  const margin = (Z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  return { low: round(Math.max(0, center - margin)), high: round(Math.min(1, center + margin)) };
}

export function proportion(count: number, n: number): Proportion {
  const interval = wilson(count, n);
  return {
    value: n === 0 ? null : round(count / n),
    n,
    count,
    ci_low: interval?.low ?? null,
    ci_high: interval?.high ?? null,
  };
}

/**
 * How two proportions' 95% intervals sit: "below" when `a`'s lies wholly under `b`'s, "above"
 * when wholly over, "overlap" otherwise (or when either has no answers). Disjoint intervals are
 * how a change between two runs is called statistically real.
 */
export function compareIntervals(a: Proportion, b: Proportion): "below" | "above" | "overlap" {
  if (a.ci_low === null || a.ci_high === null || b.ci_low === null || b.ci_high === null) return "overlap";
  if (a.ci_high < b.ci_low) return "below";
  if (a.ci_low > b.ci_high) return "above";
  return "overlap";
}

function mean(values: number[]): number | null {
  return values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length;
}

/** DESIGN.md §3's aggregates over any set of answers (an analysis, an engine, a prompt, a period). */
export function summarize(answers: AnswerCounts[], competitorNames: string[]): Summary {
  const n = answers.length;
  const mentioning = answers.filter((a) => a.mentioned);
  const competitorCounts = competitorNames.map((name) => {
    const rows = answers.map((a) => a.competitors.find((c) => c.name === name)).filter((c) => c !== undefined);
    const mentioned = rows.filter((c) => c.mentioned);
    return {
      name,
      mentioned: mentioned.length,
      positions: mentioned.map((c) => c.position).filter((p): p is number => p !== null),
    };
  });
  const allMentions = mentioning.length + competitorCounts.reduce((sum, c) => sum + c.mentioned, 0);
  const sentiments = mentioning.map((a) => a.sentiment).filter((s): s is number => s !== null);
  const positions = mentioning.map((a) => a.position).filter((p): p is number => p !== null);
  const withCitations = answers.filter((a) => a.citations.length > 0);
  const citing = withCitations.filter((a) => a.citations.some((c) => c.brand));
  const citations = answers.flatMap((a) => a.citations);
  const brandCitations = citations.filter((c) => c.brand).length;
  const domains = new Map<string, { citations: number; brand: boolean }>();
  for (const citation of citations) {
    const entry = domains.get(citation.domain) ?? { citations: 0, brand: citation.brand };
    entry.citations++;
    domains.set(citation.domain, entry);
  }
  const averagePosition = mean(positions);
  const averageSentiment = mean(sentiments);
  const averageScore = mean(answers.map((a) => a.score));
  return {
    answers: n,
    visibility: proportion(mentioning.length, n),
    share_of_voice: allMentions === 0 ? null : round(mentioning.length / allMentions),
    average_position: averagePosition === null ? null : round(averagePosition),
    sentiment_score: averageSentiment === null ? null : round((averageSentiment / 2 + 0.5) * 100, 2),
    citation_rate: withCitations.length === 0 ? null : round(citing.length / withCitations.length),
    citation_share: citations.length === 0 ? null : round(brandCitations / citations.length),
    citations: citations.length,
    brand_citations: brandCitations,
    visibility_score: averageScore === null ? null : round(averageScore, 2),
    top_cited_domains: [...domains.entries()]
      .sort((a, b) => b[1].citations - a[1].citations || a[0].localeCompare(b[0]))
      .slice(0, 10)
      .map(([domain, entry]) => ({ domain, citations: entry.citations, brand: entry.brand })),
    competitors: competitorCounts.map((c) => {
      const avg = mean(c.positions);
      return {
        name: c.name,
        visibility: n === 0 ? null : round(c.mentioned / n),
        mentioned: c.mentioned,
        share_of_voice: allMentions === 0 ? null : round(c.mentioned / allMentions),
        average_position: avg === null ? null : round(avg),
      };
    }),
  };
}

/** The standard normal distribution's CDF (Abramowitz and Stegun 7.1.26 for erf; error under 1.5e-7). */
function normalCdf(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  const erf = 1 - poly * Math.exp(-x * x);
  return z >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

/**
 * Whether two shares differ beyond chance: the pooled two-proportion z-test, two-sided. `difference`
 * is `b − a` (in share, not points); `p_value` null and `significant` false when either has no
 * answers. Significant at 5%: the same level as the 95% intervals every figure carries.
 */
export function testDifference(
  a: Proportion,
  b: Proportion,
): { difference: number | null; p_value: number | null; significant: boolean } {
  if (a.n === 0 || b.n === 0) return { difference: null, p_value: null, significant: false };
  const difference = b.count / b.n - a.count / a.n;
  const pooled = (a.count + b.count) / (a.n + b.n);
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / a.n + 1 / b.n));
  // Both shares 0 or both 1: no variation, no difference.
  const p = se === 0 ? 1 : 2 * (1 - normalCdf(Math.abs(difference) / se));
  return { difference: round(difference), p_value: round(Math.min(1, Math.max(0, p))), significant: p < 0.05 };
}
