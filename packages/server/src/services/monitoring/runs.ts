import type { Selectable } from "kysely";
import type { AnalysesTable, MonitoringRunsTable } from "../../db/tables.ts";
import { ApiError, notFound } from "../../errors/api-error.ts";
import { newId } from "../../lib/ids.ts";
import { toJson } from "../../lib/json.ts";
import { analysisColumns } from "../analyses/columns.ts";
import { createAnalysis } from "../analyses/create.ts";
import type { AnalysisFinishedHook } from "../analyses/finish.ts";
import type { AnalysisSummary } from "../analyses/types.ts";
import { inTransaction, type ServiceContext } from "../context.ts";
import { recordEvent } from "../events/events.ts";
import { compareIntervals, type Summary } from "../measurement/aggregate.ts";
import { fetchPage, type Page, type PageParams } from "../pagination.ts";
import { liveProjectIds } from "../projects/live.ts";
import { trafficSignals } from "../traffic/signals.ts";
import type { CostView } from "../usage/costs.ts";
import { evaluateRules, TRAFFIC_RULES } from "./alerts.ts";
import { fireAlert } from "./brand-alerts.ts";
import { runColumns, scheduleColumns } from "./columns.ts";
import type { MetricChange, RunChange, RunFailures, RunView } from "./types.ts";

export function rowToRun(row: Selectable<MonitoringRunsTable>): RunView {
  return {
    id: row.id,
    object: "monitoring_run",
    schedule_id: row.schedule_id,
    project_id: row.project_id,
    slot: row.slot.startsWith("manual:") ? null : row.slot,
    status: row.status as RunView["status"],
    skip_reason: row.skip_reason,
    analysis_id: row.analysis_id,
    summary: runColumns.summary.readNullable(row.summary),
    change: runColumns.change.readNullable(row.change),
    cost: runColumns.cost.readNullable(row.cost),
    failures: runColumns.failures.readNullable(row.failures),
    created_at: row.created_at,
    completed_at: row.completed_at,
  };
}

/** Why a run cannot start, among the refusals an analysis can meet; anything else is a fault. */
const SKIPPABLE = new Set(["BILLING_LIMIT_EXCEEDED", "ENGINE_NOT_ALLOWED", "VALIDATION_ERROR", "NOT_FOUND"]);

/**
 * Starts the run of one slot: records it (at most once per slot and schedule: the unique slot wins
 * any race between workers) and queues its analysis. A run whose analysis is refused (credits
 * exhausted, an engine no longer in the plan, no prompts) is recorded as skipped with the reason.
 *
 * @returns the run, or null when the slot had already been taken.
 */
export async function startRun(
  ctx: ServiceContext,
  schedule: {
    id: string;
    project_id: string;
    engines: string | null;
    prompts: string | null;
    samples: number;
    batch: boolean;
  },
  slot: string,
): Promise<RunView | null> {
  return inTransaction(ctx, async (tx) => {
    const now = tx.clock.now().toISOString();
    const id = newId("run");
    const inserted = await tx.db
      .insertInto("monitoring_runs")
      .values({
        id,
        workspace_id: tx.workspace.id,
        schedule_id: schedule.id,
        project_id: schedule.project_id,
        slot,
        status: "queued",
        skip_reason: null,
        analysis_id: null,
        summary: null,
        change: null,
        created_at: now,
        completed_at: null,
      })
      .onConflict((oc) => oc.columns(["schedule_id", "slot"]).doNothing())
      .executeTakeFirst();
    if (inserted.numInsertedOrUpdatedRows === 0n) return null;
    const engines = scheduleColumns.engines.readNullable(schedule.engines);
    const prompts = scheduleColumns.prompts.readNullable(schedule.prompts);
    try {
      const analysis = await createAnalysis(
        tx,
        {
          project_id: schedule.project_id,
          ...(engines === null ? {} : { engines }),
          ...(prompts === null ? {} : { prompts }),
          samples: schedule.samples,
        },
        { trigger: "monitoring", scheduleId: schedule.id, batch: schedule.batch },
      );
      await tx.db.updateTable("monitoring_runs").set({ analysis_id: analysis.id }).where("id", "=", id).execute();
    } catch (error) {
      if (!(error instanceof ApiError) || !SKIPPABLE.has(error.code)) throw error;
      await tx.db
        .updateTable("monitoring_runs")
        .set({ status: "skipped", skip_reason: `${error.code}: ${error.message}`, completed_at: now })
        .where("id", "=", id)
        .execute();
    }
    const run = rowToRun(
      await tx.db.selectFrom("monitoring_runs").selectAll().where("id", "=", id).executeTakeFirstOrThrow(),
    );
    if (run.status === "skipped") await recordEvent(tx, "monitoring.completed", { object: run });
    return run;
  });
}

function change(current: number | null, previous: number | null, digits = 4): MetricChange {
  const delta =
    current === null || previous === null ? null : Math.round((current - previous) * 10 ** digits) / 10 ** digits;
  return { current, previous, delta };
}

function compareRuns(previousRunId: string, now: Summary, before: Summary): RunChange {
  const significant = compareIntervals(now.visibility, before.visibility) !== "overlap";
  return {
    previous_run_id: previousRunId,
    visibility: { ...change(now.visibility.value, before.visibility.value), significant },
    share_of_voice: change(now.share_of_voice, before.share_of_voice),
    average_position: change(now.average_position, before.average_position, 2),
    sentiment_score: change(now.sentiment_score, before.sentiment_score, 1),
    citation_rate: change(now.citation_rate, before.citation_rate),
    visibility_score: change(now.visibility_score, before.visibility_score, 1),
  };
}

/**
 * Closes a monitoring run, in its analysis's final transaction: its summary and change against the
 * previous completed run of the schedule, the alerts whose conditions start to hold (each with an
 * `alert.triggered` event; a condition still holding does not fire again until it has cleared), and
 * `monitoring.completed`.
 */
async function finishRun(
  ctx: ServiceContext,
  analysis: Selectable<AnalysesTable>,
  summary: AnalysisSummary,
  cost: CostView,
): Promise<void> {
  const run = await ctx.db
    .selectFrom("monitoring_runs")
    .selectAll()
    .where("workspace_id", "=", ctx.workspace.id)
    .where("analysis_id", "=", analysis.id)
    .executeTakeFirst();
  if (run === undefined || run.status === "completed" || run.status === "failed") return;
  const schedule = await ctx.db
    .selectFrom("monitoring_schedules")
    .select(["id", "alert_rules"])
    .where("workspace_id", "=", ctx.workspace.id)
    .where("id", "=", run.schedule_id)
    .executeTakeFirst();
  const previous = await ctx.db
    .selectFrom("monitoring_runs")
    .selectAll()
    .where("workspace_id", "=", ctx.workspace.id)
    .where("schedule_id", "=", run.schedule_id)
    .where("status", "=", "completed")
    .where("id", "!=", run.id)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  const previousSummary = runColumns.summary.readNullable(previous?.summary);
  const completed = analysis.status === "completed";
  const now = ctx.clock.now().toISOString();
  const runChange =
    completed && previous !== undefined && previousSummary !== null
      ? compareRuns(previous.id, summary.overall, previousSummary.overall)
      : null;

  if (completed && schedule !== undefined) {
    const rules = scheduleColumns.alertRules.read(schedule.alert_rules);
    const states = await ctx.db.selectFrom("alert_states").selectAll().where("schedule_id", "=", schedule.id).execute();
    const active = (ruleId: string, scope: string) =>
      states.some((s) => s.rule_id === ruleId && s.scope === scope && s.active);
    // The brand's traffic is read only when a rule asks for it.
    const traffic = rules.some((rule) => TRAFFIC_RULES.has(rule.type))
      ? await trafficSignals(ctx, run.project_id, Object.keys(summary.by_engine))
      : null;
    for (const evaluation of evaluateRules(rules, summary, previousSummary, active, traffic)) {
      const wasActive = active(evaluation.rule.id, evaluation.scope);
      await ctx.db
        .insertInto("alert_states")
        .values({
          schedule_id: schedule.id,
          rule_id: evaluation.rule.id,
          scope: evaluation.scope,
          active: evaluation.holds,
          updated_at: now,
        })
        .onConflict((oc) =>
          oc.columns(["schedule_id", "rule_id", "scope"]).doUpdateSet({ active: evaluation.holds, updated_at: now }),
        )
        .execute();
      if (!evaluation.holds || wasActive) continue;
      await fireAlert(ctx, {
        projectId: run.project_id,
        scheduleId: schedule.id,
        runId: run.id,
        rule: evaluation.rule,
        scope: evaluation.scope,
        observed: evaluation.observed,
        previous: evaluation.previous,
        message: evaluation.message,
      });
    }
  }

  await ctx.db
    .updateTable("monitoring_runs")
    .set({
      status: completed ? "completed" : "failed",
      summary: toJson(summary),
      change: runChange === null ? null : toJson(runChange),
      cost: toJson(cost),
      failures: toJson(failuresOf(analysis)),
      completed_at: now,
    })
    .where("id", "=", run.id)
    .execute();
  const finished = await ctx.db
    .selectFrom("monitoring_runs")
    .selectAll()
    .where("id", "=", run.id)
    .executeTakeFirstOrThrow();
  await recordEvent(ctx, "monitoring.completed", { object: rowToRun(finished) });
}

/** How many of the analysis's answers failed, of how many, and why: its stored per-engine errors. */
function failuresOf(analysis: Selectable<AnalysesTable>): RunFailures {
  const errors = analysisColumns.errors.read(analysis.errors);
  return { failed: errors.reduce((sum, e) => sum + e.answers, 0), total: analysis.total_answers, errors };
}

/** The analysis-finished hook of monitoring: closes the run the analysis belongs to, if any. */
export const closeMonitoringRun: AnalysisFinishedHook = async (ctx, { analysis, summary, cost }) => {
  if (analysis.schedule_id !== null) await finishRun(ctx, analysis, summary, cost);
};

export async function listRuns(ctx: ServiceContext, scheduleId: string, params: PageParams): Promise<Page<RunView>> {
  const exists = await ctx.db
    .selectFrom("monitoring_schedules")
    .select("id")
    .where("workspace_id", "=", ctx.workspace.id)
    .where("id", "=", scheduleId)
    .where("project_id", "in", liveProjectIds(ctx.db, ctx.workspace.id))
    .executeTakeFirst();
  if (exists === undefined) throw notFound("monitoring schedule", scheduleId);
  const query = ctx.db
    .selectFrom("monitoring_runs")
    .selectAll()
    .where("workspace_id", "=", ctx.workspace.id)
    .where("schedule_id", "=", scheduleId);
  return fetchPage(query, params, rowToRun);
}
