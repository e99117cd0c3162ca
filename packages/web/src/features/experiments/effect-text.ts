import { percent, points } from "../../lib/figures.ts";
import type { Change, ExperimentEffect } from "./experiments-api.ts";

type Interval = { ci_low: number | null; ci_high: number | null };

/** "+4 to +20 pts": an effect's 95% interval in points. */
function pointsInterval({ ci_low, ci_high }: Interval): string {
  if (ci_low === null || ci_high === null) return "no interval";
  return `${points(ci_low).replace(/ pts$/, "")} to ${points(ci_high)}`;
}

/** "+12 pts (95% interval +4 to +20 pts)"; "not enough data" without an estimate. */
export function effectWithInterval(e: { effect: number | null } & Interval): string {
  if (e.effect === null) return "not enough data";
  return `${points(e.effect)} (95% interval ${pointsInterval(e)})`;
}

/** "p = 0.034", "p < 0.001"; "–" without one. */
export function pValue(p: number | null | undefined): string {
  if (p === null || p === undefined) return "–";
  if (p < 0.001) return "p < 0.001";
  return `p = ${p.toFixed(3)}`;
}

/** "31% before, 58% after": a group's share each side of the change. */
export function beforeAfter(side: { before: number | null; after: number | null }): string {
  return `${percent(side.before)} before, ${percent(side.after)} after`;
}

/** "6 treated and 4 control prompts, 312 answers": what an effect rests on. */
export function basis(e: ExperimentEffect): string {
  const prompts = (n: number, what: string) => `${n} ${what} ${n === 1 ? "prompt" : "prompts"}`;
  return `${prompts(e.treated_prompts, "treated")} and ${prompts(e.control_prompts, "control")} answered on both sides, ${e.answers.toLocaleString()} ${e.answers === 1 ? "answer" : "answers"}`;
}

/** The pre-trend check in a sentence. */
export function preTrendLine(pre: Change["pre_trend"]): string {
  if (pre === null) return "Pre-trend check: too few answers before the change to check it.";
  const figure = `${effectWithInterval(pre)}, ${pValue(pre.p_value)}`;
  return pre.diverging
    ? `Pre-trend check failed: the treated and control prompts were already drifting apart before the change (${figure}), so the result is not called.`
    : `Pre-trend check passed: the treated and control prompts moved alike before the change (${figure}).`;
}
