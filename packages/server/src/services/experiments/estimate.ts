import { studentTCdf, studentTQuantile } from "./distributions.ts";

/**
 * The effect of a change on the brand's visibility, as a difference in differences (issue 27): how
 * much more the treated prompts' visibility moved across the change than the control prompts'.
 *
 * The answers of one prompt are not independent (an engine answers the same question alike), so
 * each prompt counts once: its change is its share of answers naming the brand after, minus
 * before. The effect is the treated prompts' mean change minus the controls' mean change; its
 * interval and p-value come from Welch's t on those per-prompt changes, with Welch's degrees of
 * freedom. This is the cluster-level analysis: exact in its assumptions with few clusters, where
 * cluster-robust errors are too narrow and a cluster bootstrap of ten prompts is coarse; and each
 * prompt weighs the same whatever its number of answers, as each is one question buyers ask.
 * The drift every prompt shares (engines changing by themselves) cancels in the difference.
 */
export interface ExperimentAnswer {
  prompt: string;
  treated: boolean;
  /** Asked after the change took effect. */
  after: boolean;
  mentioned: boolean;
  /** When it was answered (epoch ms): the pre-trend check splits the period before by it. */
  at?: number;
}

export interface Estimate {
  /** Treated prompts' mean change minus the controls', as a share (0.12 = 12 points). */
  effect: number;
  low: number;
  high: number;
  p_value: number;
  standard_error: number;
  degrees_of_freedom: number;
  treated_prompts: number;
  control_prompts: number;
  answers: number;
}

/** What an estimate needs: two prompts a side with answers both before and after. */
const MIN_PROMPTS = 2;

interface Cell {
  before: number;
  beforeN: number;
  after: number;
  afterN: number;
  treated: boolean;
}

function cellsOf(answers: readonly ExperimentAnswer[]): Map<string, Cell> {
  const cells = new Map<string, Cell>();
  for (const answer of answers) {
    let cell = cells.get(answer.prompt);
    if (cell === undefined) {
      cell = { before: 0, beforeN: 0, after: 0, afterN: 0, treated: answer.treated };
      cells.set(answer.prompt, cell);
    }
    if (answer.after) {
      cell.afterN++;
      if (answer.mentioned) cell.after++;
    } else {
      cell.beforeN++;
      if (answer.mentioned) cell.before++;
    }
  }
  return cells;
}

const mean = (values: readonly number[]) => values.reduce((a, b) => a + b, 0) / values.length;
const variance = (values: readonly number[]) => {
  const m = mean(values);
  return values.reduce((sum, v) => sum + (v - m) ** 2, 0) / (values.length - 1);
};

/** The estimate, or null when either side has fewer than MIN_PROMPTS prompts answered on both sides of the change. */
export function differenceInDifferences(answers: readonly ExperimentAnswer[], level = 0.95): Estimate | null {
  const treated: number[] = [];
  const control: number[] = [];
  let counted = 0;
  for (const cell of cellsOf(answers).values()) {
    if (cell.beforeN === 0 || cell.afterN === 0) continue;
    counted += cell.beforeN + cell.afterN;
    (cell.treated ? treated : control).push(cell.after / cell.afterN - cell.before / cell.beforeN);
  }
  if (treated.length < MIN_PROMPTS || control.length < MIN_PROMPTS) return null;
  const effect = mean(treated) - mean(control);
  const vt = variance(treated) / treated.length;
  const vc = variance(control) / control.length;
  const se = Math.sqrt(vt + vc);
  // Welch–Satterthwaite; with no variation at all, the smallest sample's degrees of freedom.
  const df =
    vt + vc === 0
      ? Math.min(treated.length, control.length) - 1
      : (vt + vc) ** 2 / (vt ** 2 / (treated.length - 1) + vc ** 2 / (control.length - 1));
  const half = se === 0 ? 0 : studentTQuantile(1 - (1 - level) / 2, df) * se;
  const p = se === 0 ? (effect === 0 ? 1 : 0) : 2 * (1 - studentTCdf(Math.abs(effect) / se, df));
  return {
    effect,
    low: effect - half,
    high: effect + half,
    p_value: Math.min(1, Math.max(0, p)),
    standard_error: se,
    degrees_of_freedom: df,
    treated_prompts: treated.length,
    control_prompts: control.length,
    answers: counted,
  };
}

/**
 * The same difference from the answers pooled as if each were independent (a two-proportion
 * z-interval per side): what the product does NOT use. Kept to show, in the simulation, how far
 * too narrow its intervals are when prompts differ.
 */
export function naiveDifferenceInDifferences(answers: readonly ExperimentAnswer[], level = 0.95): Estimate | null {
  const sums = { tb: [0, 0], ta: [0, 0], cb: [0, 0], ca: [0, 0] } as Record<string, [number, number]>;
  const prompts = { treated: new Set<string>(), control: new Set<string>() };
  for (const a of answers) {
    const key = `${a.treated ? "t" : "c"}${a.after ? "a" : "b"}`;
    const cell = sums[key] as [number, number];
    cell[0] += a.mentioned ? 1 : 0;
    cell[1]++;
    (a.treated ? prompts.treated : prompts.control).add(a.prompt);
  }
  const share = (key: string) => {
    const [count, n] = sums[key] as [number, number];
    return { p: n === 0 ? 0 : count / n, n };
  };
  const [tb, ta, cb, ca] = [share("tb"), share("ta"), share("cb"), share("ca")];
  if ([tb, ta, cb, ca].some((s) => s.n === 0)) return null;
  const effect = ta.p - tb.p - (ca.p - cb.p);
  const se = Math.sqrt([tb, ta, cb, ca].reduce((sum, s) => sum + (s.p * (1 - s.p)) / s.n, 0));
  const z = studentTQuantile(1 - (1 - level) / 2, 1e9);
  const p = se === 0 ? (effect === 0 ? 1 : 0) : 2 * (1 - studentTCdf(Math.abs(effect) / se, 1e9));
  return {
    effect,
    low: effect - z * se,
    high: effect + z * se,
    p_value: p,
    standard_error: se,
    degrees_of_freedom: Number.POSITIVE_INFINITY,
    treated_prompts: prompts.treated.size,
    control_prompts: prompts.control.size,
    answers: answers.length,
  };
}

/**
 * Whether treated and control prompts were already drifting apart before the change: the same
 * estimator on the period before alone, its earlier half against its later half (split at the
 * median answer time). Significant at 5%: the result is not called.
 */
export function preTrend(answers: readonly ExperimentAnswer[]): Estimate | null {
  const before = answers.filter((a) => !a.after && a.at !== undefined);
  if (before.length < 4) return null;
  const times = before.map((a) => a.at as number).sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)] as number;
  return differenceInDifferences(before.map((a) => ({ ...a, after: (a.at as number) >= median })));
}
