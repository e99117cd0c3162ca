import type { Static } from "typebox";
import { type ErrorDetail, validationError } from "../../errors/api-error.ts";
import type { AnalysisFinishedHook } from "../analyses/finish.ts";
import type { ServiceContext } from "../context.ts";
import { ANALYSIS_LIMITS } from "../limits.ts";
import { fireExperimentAlerts } from "../monitoring/brand-alerts.ts";
import { isTimezone } from "../monitoring/schedule-spec.ts";
import { createSchedule, deleteSchedule, switchScheduleOff } from "../monitoring/schedules.ts";
import { findChange } from "./changes.ts";
import type { ChangeSamplesSchema } from "./schemas.ts";
import { type ChangeView, changeLists, changeView } from "./view.ts";

/** The extra samples are spread over about a week of daily runs. */
const RUN_DAYS = 7;

/**
 * Schedules the extra samples a change needs (issue 27): one monitoring schedule, daily at the
 * same hour, asking the treated and the control prompts together on the change's engines, so that
 * both see the same engines at the same hours and drift cancels out. It asks enough samples per
 * run to collect the answers planned after the change in about a week (and, while the change is
 * ahead, before it too); its `experiment_result` rule alerts when the result is ready, and it is
 * switched off then. Its runs cost credits like any run: one per answer.
 */
export async function scheduleSamples(
  ctx: ServiceContext,
  projectId: string,
  changeId: string,
  input: Static<typeof ChangeSamplesSchema>,
): Promise<ChangeView> {
  const row = await findChange(ctx, projectId, changeId);
  const details: ErrorDetail[] = [];
  if (input.at !== undefined && !/^([01]\d|2[0-3]):[0-5]\d$/.test(input.at))
    details.push({ field: "at", issue: "must be a time of day as HH:MM, e.g. 09:30" });
  if (input.timezone !== undefined && !isTimezone(input.timezone))
    details.push({ field: "timezone", issue: "must be an IANA time zone such as Europe/Paris, or UTC" });
  if (details.length > 0) throw validationError(details);
  const view = await changeView(ctx, row);
  if (row.schedule_id !== null)
    throw validationError([{ field: "change_id", issue: `its samples are already scheduled (${row.schedule_id})` }]);
  if (view.status !== "collecting")
    throw validationError([{ field: "change_id", issue: "its result is ready: there is nothing more to collect" }]);
  const perPrompt = view.plan.answers_per_prompt;
  if (perPrompt === null)
    throw validationError([
      { field: "change_id", issue: "more prompts are needed, not more answers (see plan.message)" },
    ]);
  const { prompts, control, engines } = changeLists(row);
  const cells = (prompts.length + control.length) * engines.length;
  const samples = Math.max(
    1,
    Math.min(ANALYSIS_LIMITS.samples, Math.ceil(perPrompt / RUN_DAYS), Math.floor(ANALYSIS_LIMITS.answers / cells)),
  );
  const schedule = await createSchedule(ctx, {
    project_id: projectId,
    prompts: [...prompts, ...control],
    engines,
    samples,
    schedule: { every: "day", at: input.at ?? "09:00" },
    timezone: input.timezone ?? "UTC",
    alert_rules: [{ type: "experiment_result" }],
  });
  const now = ctx.clock.now().toISOString();
  await ctx.db
    .updateTable("changes")
    .set({ schedule_id: schedule.id, updated_at: now })
    .where("workspace_id", "=", ctx.workspace.id)
    .where("id", "=", changeId)
    .execute();
  return changeView(ctx, { ...row, schedule_id: schedule.id, updated_at: now });
}

/** Deletes a change, and its samples schedule when it has one. */
export async function deleteChange(ctx: ServiceContext, projectId: string, changeId: string) {
  const row = await findChange(ctx, projectId, changeId);
  await ctx.db.deleteFrom("changes").where("workspace_id", "=", ctx.workspace.id).where("id", "=", changeId).execute();
  if (row.schedule_id !== null) {
    const exists = await ctx.db
      .selectFrom("monitoring_schedules")
      .select("id")
      .where("workspace_id", "=", ctx.workspace.id)
      .where("id", "=", row.schedule_id)
      .executeTakeFirst();
    if (exists !== undefined) await deleteSchedule(ctx, row.schedule_id);
  }
  return { id: changeId, object: "change" as const, deleted: true as const };
}

/**
 * The analysis-finished hook of experiments: every change of the brand still collecting whose
 * answers are in (or whose window has passed) gets its result, frozen at this moment; its samples
 * schedule is switched off and the brand's `experiment_result` rules fire, in the transaction
 * that closes the analysis.
 */
export const settleExperiments: AnalysisFinishedHook = async (ctx, { analysis }) => {
  const open = await ctx.db
    .selectFrom("changes")
    .selectAll()
    .where("workspace_id", "=", ctx.workspace.id)
    .where("project_id", "=", analysis.project_id)
    .where("result_at", "is", null)
    .where("changed_at", "<=", ctx.clock.now().toISOString())
    .execute();
  const ready: string[] = [];
  for (const row of open) {
    const view = await changeView(ctx, row);
    if (view.status === "collecting") continue;
    const now = ctx.clock.now().toISOString();
    await ctx.db
      .updateTable("changes")
      .set({ result_at: now, updated_at: now })
      .where("workspace_id", "=", ctx.workspace.id)
      .where("id", "=", row.id)
      .execute();
    if (row.schedule_id !== null) await switchScheduleOff(ctx, row.schedule_id);
    ready.push(`“${row.title}”: ${view.summary}`);
  }
  await fireExperimentAlerts(ctx, analysis.project_id, analysis.id, ready);
};
