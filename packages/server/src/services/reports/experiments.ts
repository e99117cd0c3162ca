import type { ServiceContext } from "../context.ts";
import { finishedChanges } from "../experiments/changes.ts";
import type { ChangeView } from "../experiments/view.ts";
import type { Project } from "../projects/types.ts";
import type { ReportExperiment } from "./types.ts";

/** One finished change as a report freezes it: its effect on visibility overall, and its verdict. */
function reportExperiment(change: ChangeView): ReportExperiment | null {
  // A change with its result is never collecting: this narrows the type, it filters nothing.
  if (change.status === "collecting" || change.result_at === null) return null;
  const overall = change.visibility.overall;
  return {
    id: change.id,
    title: change.title,
    changed_at: change.changed_at,
    result_at: change.result_at,
    status: change.status,
    summary: change.summary,
    effect: overall.effect,
    ci_low: overall.ci_low,
    ci_high: overall.ci_high,
    p_value: overall.p_value,
    treated_prompts: overall.treated_prompts,
    control_prompts: overall.control_prompts,
    answers: overall.answers,
    pre_trend_diverging: change.pre_trend?.diverging ?? null,
    engines: change.engines,
  };
}

/**
 * The brand's experiments whose result was ready by the end of a report's period, read through
 * the experiments feature (the same figures `GET /v1/projects/:id/changes/:change_id` gives), or
 * undefined when it had none: a report of a brand without experiments carries no empty section.
 */
export async function reportExperiments(
  ctx: ServiceContext,
  project: Project,
  period: { start: string; end: string },
): Promise<ReportExperiment[] | undefined> {
  // An analysis accepted before its brand was deleted still finishes and gets its report; the
  // experiments feature shows live brands only (its routes refuse this one), so the report has none.
  if (project.deleted_at !== undefined) return undefined;
  const changes = await finishedChanges(ctx, project.id, period.end);
  const experiments = changes.map(reportExperiment).filter((e): e is ReportExperiment => e !== null);
  return experiments.length === 0 ? undefined : experiments;
}
