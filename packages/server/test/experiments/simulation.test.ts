import { describe, expect, it } from "vitest";
import { studentTCdf, studentTQuantile } from "../../src/services/experiments/distributions.ts";
import {
  differenceInDifferences,
  type Estimate,
  type ExperimentAnswer,
  naiveDifferenceInDifferences,
  preTrend,
} from "../../src/services/experiments/estimate.ts";
import { planAnswers } from "../../src/services/experiments/plan.ts";

/**
 * The experiments' statistics, validated by simulation rather than asserted (issue 27): answers
 * are drawn with a known effect, fed to the estimator the product uses, and the share of
 * intervals covering the truth, of false alarms and of effects found is counted over thousands of
 * experiments. A fixed seed keeps the test deterministic.
 */

/** mulberry32: a small seeded generator, the same numbers on every run. */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function normal(random: () => number): number {
  const u = Math.max(random(), Number.MIN_VALUE);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

const clip = (p: number) => Math.min(0.99, Math.max(0.01, p));

interface Setting {
  /** The true effect on the treated prompts, as a share. */
  effect: number;
  /** Answers per prompt, before and again after. */
  answers: number;
  prompts?: number;
  /** How prompts differ in how they move across the change, beyond chance (SD, as a share). */
  spread?: number;
  /** Every prompt's shared drift across the change. */
  drift?: number;
  /** The treated prompts' rise during the period before (a pre-trend), as a share. */
  preTrend?: number;
}

const SPREAD = 0.08;
const DAY = 86_400_000;

/** One simulated experiment's answers: prompts with base rates of their own, a shared drift. */
function simulate(random: () => number, s: Setting): ExperimentAnswer[] {
  const prompts = s.prompts ?? 10;
  const answers: ExperimentAnswer[] = [];
  for (let i = 0; i < 2 * prompts; i++) {
    const treated = i < prompts;
    const base = 0.2 + 0.4 * random();
    const change = (s.drift ?? 0.05) + (treated ? s.effect : 0) + (s.spread ?? SPREAD) * normal(random);
    const early = base - (treated ? (s.preTrend ?? 0) / 2 : 0);
    const late = base + (treated ? (s.preTrend ?? 0) / 2 : 0);
    for (let j = 0; j < s.answers; j++) {
      // The period before: its first half, then its second (where a pre-trend shows).
      const first = j < s.answers / 2;
      answers.push({
        prompt: `p${i}`,
        treated,
        after: false,
        mentioned: random() < clip(first ? early : late),
        at: (first ? 0 : 10) * DAY + j,
      });
      answers.push({
        prompt: `p${i}`,
        treated,
        after: true,
        mentioned: random() < clip(late + change),
        at: 30 * DAY + j,
      });
    }
  }
  return answers;
}

interface Rates {
  covered: number;
  significant: number;
  runs: number;
}

function run(
  seed: number,
  runs: number,
  s: Setting,
  estimator: (a: ExperimentAnswer[]) => Estimate | null = differenceInDifferences,
): Rates {
  const random = generator(seed);
  let covered = 0;
  let significant = 0;
  for (let r = 0; r < runs; r++) {
    const estimate = estimator(simulate(random, s));
    if (estimate === null) throw new Error("every simulated prompt has answers on both sides");
    if (estimate.low <= s.effect && s.effect <= estimate.high) covered++;
    if (estimate.p_value < 0.05) significant++;
  }
  return { covered: covered / runs, significant: significant / runs, runs };
}

const pct = (v: number) => `${(v * 100).toFixed(1)}%`;
const RUNS = 2_000;

describe("experiment statistics, by simulation (issue 27)", () => {
  // 10 treated and 10 control prompts, 60 answers each before and after, a 5-point drift.
  const coverage = run(27, RUNS, { effect: 0.1, answers: 60 });
  const none = run(28, RUNS, { effect: 0, answers: 60 });
  const plan = planAnswers({ treatedPrompts: 10, controlPrompts: 10, effect: 0.15, promptSpread: SPREAD });
  const power = run(29, RUNS, { effect: 0.15, answers: plan.answers ?? 0 });
  const naiveCoverage = run(27, RUNS, { effect: 0.1, answers: 60 }, naiveDifferenceInDifferences);
  const naiveNone = run(28, RUNS, { effect: 0, answers: 60 }, naiveDifferenceInDifferences);

  it("prints what the simulation found", () => {
    console.log(
      [
        `experiments simulated per setting: ${RUNS} (10 treated and 10 control prompts, prompts' changes spread by ${SPREAD * 100} points, a 5-point drift)`,
        `  95% interval covers the true effect (10 points, 60 answers a prompt a side): ${pct(coverage.covered)} (goal 93.5–96.5%)`,
        `  significant with no true effect: ${pct(none.significant)} (goal ≤ 6.5%)`,
        `  significant with a true effect of 15 points and the planned ${plan.answers} answers a prompt a side: ${pct(power.significant)} (goal ≥ 75%)`,
        `  naive estimator (answers as independent): covers ${pct(naiveCoverage.covered)}, significant with no effect ${pct(naiveNone.significant)}`,
      ].join("\n"),
    );
    expect(plan.answers).toBeGreaterThan(0);
  });

  it("covers the true effect with its 95% interval in 93.5–96.5% of experiments", () => {
    expect(coverage.covered).toBeGreaterThanOrEqual(0.935);
    expect(coverage.covered).toBeLessThanOrEqual(0.965);
  });

  it("finds an effect where there is none in at most 6.5% of experiments", () => {
    expect(none.significant).toBeLessThanOrEqual(0.065);
  });

  it("finds a 15-point effect with the planned sample in at least 75% of experiments", () => {
    expect(power.significant).toBeGreaterThanOrEqual(0.75);
  });

  it("shows why answers are not treated as independent: the naive intervals are too narrow", () => {
    expect(naiveCoverage.covered).toBeLessThan(0.935);
    expect(naiveNone.significant).toBeGreaterThan(0.065);
  });

  it("flags treated and control prompts already drifting apart before the change, and rarely flags them otherwise", () => {
    const flagged = (seed: number, trend: number) => {
      const random = generator(seed);
      let n = 0;
      for (let r = 0; r < 500; r++) {
        const check = preTrend(simulate(random, { effect: 0.1, answers: 60, preTrend: trend, spread: 0.03 }));
        if (check !== null && check.p_value < 0.05) n++;
      }
      return n / 500;
    };
    const diverging = flagged(30, 0.2);
    const parallel = flagged(31, 0);
    console.log(`  pre-trend of 20 points flagged: ${pct(diverging)}; none, flagged: ${pct(parallel)}`);
    expect(diverging).toBeGreaterThanOrEqual(0.8);
    expect(parallel).toBeLessThanOrEqual(0.065);
  });

  it("says nothing with fewer than two prompts a side, and plans no number when prompts alone vary too much", () => {
    const one = simulate(generator(1), { effect: 0.1, answers: 10, prompts: 1 });
    expect(differenceInDifferences(one)).toBeNull();
    expect(planAnswers({ treatedPrompts: 3, controlPrompts: 3, effect: 0.05, promptSpread: 0.2 }).answers).toBeNull();
  });
});

describe("Student's t (issue 27)", () => {
  it("matches the printed tables", () => {
    for (const [p, df, t] of [
      [0.975, 1, 12.7062],
      [0.975, 9, 2.2622],
      [0.975, 30, 2.0423],
      [0.8, 18, 0.862],
      [0.95, 5, 2.015],
    ] as const) {
      expect(studentTQuantile(p, df)).toBeCloseTo(t, 3);
      expect(studentTCdf(t, df)).toBeCloseTo(p, 4);
    }
    expect(studentTQuantile(0.975, 1e6)).toBeCloseTo(1.96, 3);
  });
});
