import { newId } from "../../lib/ids.ts";
import { toJson } from "../../lib/json.ts";
import type { ServiceContext } from "../context.ts";
import { recordEvent } from "../events/events.ts";
import { rowToAlert } from "./alert-list.ts";
import { scheduleColumns } from "./columns.ts";
import { ruleCondition } from "./rule-words.ts";
import type { AlertRule } from "./types.ts";

/** What an alert says when it fires; the rest of its row is the firing's own. */
interface Firing {
  projectId: string;
  scheduleId: string;
  runId: string;
  rule: AlertRule;
  /** "all" or an engine. */
  scope: string;
  observed: number | null;
  previous: number | null;
  message: string;
}

/**
 * Records an alert and its `alert.triggered` event (which the webhooks and the rule's channels
 * receive), in the caller's transaction: after a run's rules (runs.ts) or an experiment's result.
 */
export async function fireAlert(ctx: ServiceContext, firing: Firing): Promise<void> {
  const alert = {
    id: newId("alt"),
    workspace_id: ctx.workspace.id,
    project_id: firing.projectId,
    schedule_id: firing.scheduleId,
    run_id: firing.runId,
    rule_id: firing.rule.id,
    rule: toJson(firing.rule),
    engine: firing.scope === "all" ? null : firing.scope,
    observed: firing.observed,
    previous: firing.previous,
    message: firing.message,
    created_at: ctx.clock.now().toISOString(),
    acknowledged_at: null,
    acknowledged_by: null,
  };
  await ctx.db.insertInto("alerts").values(alert).execute();
  await recordEvent(ctx, "alert.triggered", { object: rowToAlert(alert) });
}

/**
 * Fires the `experiment_result` rules of a brand's schedules (issue 27): experiments call this
 * when a change's result becomes ready, in the transaction that records it. Each schedule with
 * the rule gets one alert, on the run of `analysisId` when that analysis is one of its runs, else
 * on its latest run (an alert belongs to a run); a schedule that never ran gets none. The alert
 * goes where every alert goes: the `alert.triggered` webhooks, the rule's channels, the Alerts list.
 *
 * @returns how many alerts fired.
 */
export async function fireExperimentAlerts(
  ctx: ServiceContext,
  projectId: string,
  analysisId: string | null,
  results: readonly string[],
): Promise<number> {
  if (results.length === 0) return 0;
  const schedules = await ctx.db
    .selectFrom("monitoring_schedules")
    .select(["id", "alert_rules"])
    .where("workspace_id", "=", ctx.workspace.id)
    .where("project_id", "=", projectId)
    .execute();
  let fired = 0;
  for (const schedule of schedules) {
    const rules = scheduleColumns.alertRules.read(schedule.alert_rules) as AlertRule[];
    const rule = rules.find((r) => r.type === "experiment_result");
    if (rule === undefined) continue;
    const runs = ctx.db
      .selectFrom("monitoring_runs")
      .select("id")
      .where("workspace_id", "=", ctx.workspace.id)
      .where("schedule_id", "=", schedule.id);
    const run =
      (analysisId === null ? undefined : await runs.where("analysis_id", "=", analysisId).executeTakeFirst()) ??
      (await runs.orderBy("created_at", "desc").orderBy("id", "desc").limit(1).executeTakeFirst());
    if (run === undefined) continue;
    await fireAlert(ctx, {
      projectId,
      scheduleId: schedule.id,
      runId: run.id,
      rule,
      scope: "all",
      observed: results.length,
      previous: null,
      message: `${ruleCondition(rule)}: ${results.join(" ")}`,
    });
    fired++;
  }
  return fired;
}
