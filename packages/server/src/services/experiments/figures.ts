import type { Static } from "typebox";
import { points } from "../glossary/format.ts";
import { differenceInDifferences, type ExperimentAnswer, preTrend } from "./estimate.ts";
import type { ExperimentEffectSchema } from "./schemas.ts";

/**
 * The figures of an experiment from its answers (issue 27): pure, so the service, the report and
 * the tests compute them alike. An answer is one stored result of a treated or control prompt on
 * one of the change's engines inside the window; `cited` is whether it cites a changed page (or
 * the placement).
 */
export interface WindowAnswer extends ExperimentAnswer {
  engine: string;
  cited: boolean;
  at: number;
}

export type EffectView = Static<typeof ExperimentEffectSchema>;

const lower = (text: string) => `${text.charAt(0).toLowerCase()}${text.slice(1)}`;
const round = (value: number, digits = 4) => Math.round(value * 10 ** digits) / 10 ** digits;
const shareOf = (answers: readonly WindowAnswer[], pick: (a: WindowAnswer) => boolean) =>
  answers.length === 0 ? null : round(answers.filter(pick).length / answers.length);

/** The difference in differences of one outcome over some answers, with its words. */
export function effectOf(
  answers: readonly WindowAnswer[],
  outcome: (a: WindowAnswer) => boolean,
  what: string,
): EffectView {
  const recoded = answers.map((a) => ({ ...a, mentioned: outcome(a) }));
  const estimate = differenceInDifferences(recoded);
  const side = (treated: boolean, after: boolean) =>
    shareOf(
      answers.filter((a) => a.treated === treated && a.after === after),
      outcome,
    );
  const groups = {
    treated: { before: side(true, false), after: side(true, true) },
    control: { before: side(false, false), after: side(false, true) },
  };
  if (estimate === null) {
    const prompts = (treated: boolean) => {
      const before = new Set(answers.filter((a) => a.treated === treated && !a.after).map((a) => a.prompt));
      return new Set(
        answers.filter((a) => a.treated === treated && a.after && before.has(a.prompt)).map((a) => a.prompt),
      ).size;
    };
    const sides = { before: answers.some((a) => !a.after), after: answers.some((a) => a.after) };
    const lacking = !sides.after
      ? "no answers after the change yet"
      : !sides.before
        ? "no answers before the change, so nothing to compare with"
        : `${lower(what)} needs at least 2 treated and 2 control prompts answered both before and after the change`;
    return {
      status: "not_enough_data",
      effect: null,
      ci_low: null,
      ci_high: null,
      p_value: null,
      treated_prompts: prompts(true),
      control_prompts: prompts(false),
      answers: answers.length,
      ...groups,
      message: `Not enough data yet: ${lacking}.`,
    };
  }
  const clamp = (v: number) => round(Math.max(-1, Math.min(1, v)));
  return {
    status: "estimate",
    effect: clamp(estimate.effect),
    ci_low: clamp(estimate.low),
    ci_high: clamp(estimate.high),
    p_value: round(estimate.p_value),
    treated_prompts: estimate.treated_prompts,
    control_prompts: estimate.control_prompts,
    answers: estimate.answers,
    ...groups,
    message: effectSentence(what, estimate.effect, estimate.low, estimate.high, estimate.p_value),
  };
}

/** "+4 to +20 pts": an interval in points, its unit said once, as the dashboard writes it. */
function pointsRange(low: number, high: number): string {
  return `${points(low).replace(/ pts$/, "")} to ${points(high)}`;
}

/** "rose 12 pts (95% interval +4 to +20 pts) more than on the controls; p = 0.003". */
function effectSentence(what: string, effect: number, low: number, high: number, p: number): string {
  const moved =
    Math.abs(effect) < 0.0005
      ? "moved no more"
      : effect > 0
        ? `rose ${points(effect).replace("+", "")} more`
        : `fell ${points(-effect).replace("+", "")} more`;
  const pText = p < 0.001 ? "p < 0.001" : `p = ${p.toFixed(3)}`;
  return `${what} on the treated prompts ${moved} than on the controls (95% interval ${pointsRange(low, high)}); ${pText}.`;
}

export interface PreTrendView {
  diverging: boolean;
  effect: number;
  ci_low: number;
  ci_high: number;
  p_value: number;
}

export function preTrendOf(answers: readonly WindowAnswer[]): PreTrendView | null {
  const check = preTrend(answers.filter((a) => !a.after));
  if (check === null) return null;
  return {
    diverging: check.p_value < 0.05,
    effect: round(check.effect),
    ci_low: round(check.low),
    ci_high: round(check.high),
    p_value: round(check.p_value),
  };
}

export interface SeriesPoint {
  day: string;
  treated: number | null;
  control: number | null;
  treated_answers: number;
  control_answers: number;
}

/** Treated against control visibility per UTC day with answers. */
export function seriesOf(answers: readonly WindowAnswer[]): SeriesPoint[] {
  const days = new Map<string, { t: number; tn: number; c: number; cn: number }>();
  for (const a of answers) {
    const day = new Date(a.at).toISOString().slice(0, 10);
    const cell = days.get(day) ?? { t: 0, tn: 0, c: 0, cn: 0 };
    if (a.treated) {
      cell.tn++;
      if (a.mentioned) cell.t++;
    } else {
      cell.cn++;
      if (a.mentioned) cell.c++;
    }
    days.set(day, cell);
  }
  return [...days.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([day, c]) => ({
      day,
      treated: c.tn === 0 ? null : round(c.t / c.tn),
      control: c.cn === 0 ? null : round(c.c / c.cn),
      treated_answers: c.tn,
      control_answers: c.cn,
    }));
}

export type Status = "collecting" | "result" | "inconclusive" | "not_called";

/** The status of an experiment, and its result card's sentence. */
export function verdict(
  complete: boolean,
  overall: EffectView,
  pre: PreTrendView | null,
  /** Answers still needed after the change; null when the plan needs more prompts, not answers. */
  missing: number | null,
): { status: Status; summary: string } {
  if (!complete) {
    const sofar = overall.status === "estimate" ? ` So far: ${overall.message}` : "";
    const needed =
      missing === null
        ? "Collecting answers until 28 days after the change; too few prompts for the planned effect to show (see the plan)."
        : `Collecting: ${missing.toLocaleString("en-US")} more ${missing === 1 ? "answer" : "answers"} needed after the change.`;
    return { status: "collecting", summary: `${needed}${sofar}` };
  }
  if (pre?.diverging === true)
    return {
      status: "not_called",
      summary: `Not called: the treated and control prompts were already drifting apart before the change (${points(pre.effect)}, 95% interval ${pointsRange(pre.ci_low, pre.ci_high)}, p = ${pre.p_value.toFixed(3)}), so the gap after it cannot be credited to the change.`,
    };
  if (overall.status === "not_enough_data")
    return { status: "inconclusive", summary: `Inconclusive. ${overall.message}` };
  const trend = pre === null ? "too few answers before the change to check the pre-trend" : "no pre-trend";
  if ((overall.p_value ?? 1) < 0.05)
    return { status: "result", summary: `${overall.message.replace(/\.$/, "")}; ${trend}.` };
  return {
    status: "inconclusive",
    summary: `Inconclusive: ${overall.message.replace(/\.$/, "")}, which could be chance; ${trend}.`,
  };
}
