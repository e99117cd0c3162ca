import { count } from "../../../lib/plural.ts";
import * as f from "../../glossary/format.ts";
import { GLOSSARY } from "../../glossary/metrics.ts";
import type { ReportExperiment } from "../types.ts";

/**
 * The report's "Experiments" (issue 27) in words a marketer reads: each finished change, when it
 * was made, how its result was called, the result card's sentence, and its effect on visibility
 * in points with its 95% interval, printed by the glossary's formatters as the dashboard prints
 * them ("+12 pts (95% interval +4 to +20 pts)").
 */
export interface ExperimentsView {
  /** What the section measures, in the glossary's words. */
  note: string;
  items: {
    title: string;
    /** "Changed 21 Nov 2026 · Result". */
    meta: string;
    /** The effect and its interval, or what is missing. */
    effect: string;
    /** The result card's sentence. */
    summary: string;
  }[];
}

const day = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });

const STATUS: Record<ReportExperiment["status"], string> = {
  result: "Result",
  inconclusive: "Inconclusive",
  not_called: "Not called",
};

/** "Effect on visibility: +12 pts (95% interval +4 to +20 pts), p = 0.003, from 3 treated prompts against 3 control prompts, 96 answers." */
function effect(e: ReportExperiment): string {
  const name = GLOSSARY.experiment_effect.name;
  if (e.effect === null || e.ci_low === null || e.ci_high === null)
    return `${name}: not enough data (at least 2 treated and 2 control prompts must be answered both before and after the change).`;
  const p = e.p_value === null ? "" : e.p_value < 0.001 ? ", p < 0.001" : `, p = ${e.p_value.toFixed(3)}`;
  const low = f.points(e.ci_low).replace(/ pts$/, "");
  return `${name} on visibility: ${f.points(e.effect)} (95% interval ${low} to ${f.points(e.ci_high)})${p}, from ${count(e.treated_prompts, "treated prompt")} against ${count(e.control_prompts, "control prompt")}, ${count(e.answers, "answer")}.`;
}

/** Null when the report has no experiments section (none finished, or an older report). */
export function experimentsView(experiments: readonly ReportExperiment[] | undefined): ExperimentsView | null {
  if (experiments === undefined || experiments.length === 0) return null;
  const words = GLOSSARY.experiment_effect;
  return {
    note: `The brand's changes whose result was ready by the end of this period, the most recent first. ${words.name}: ${words.hint.charAt(0).toLowerCase()}${words.hint.slice(1)} ${words.significance}`,
    items: experiments.map((e) => ({
      title: e.title,
      meta: `Changed ${day.format(new Date(e.changed_at))} · ${STATUS[e.status]}`,
      effect: effect(e),
      summary: e.summary,
    })),
  };
}
