import type { Selectable } from "kysely";
import type { MonitoringSchedulesTable } from "../../db/tables.ts";
import { type ErrorDetail, notFound, validationError } from "../../errors/api-error.ts";
import { newId } from "../../lib/ids.ts";
import { toJson } from "../../lib/json.ts";
import { inTransaction, type ServiceContext } from "../context.ts";
import { workspaceEngines } from "../engines/workspace-engines.ts";
import { fetchPage, type Page, type PageParams } from "../pagination.ts";
import { checkEnginesInPlan } from "../plans/engines.ts";
import { liveProjectIds } from "../projects/live.ts";
import { getProject } from "../projects/projects.ts";
import { checkRules } from "./alerts.ts";
import { ruleView, storedChannels } from "./channels.ts";
import { scheduleColumns } from "./columns.ts";
import { rowToRun, startRun } from "./runs.ts";
import { checkCron, checkSpec, isTimezone, nextSlot, toCron } from "./schedule-spec.ts";
import type { AlertRule, RunView, ScheduleInput, SchedulePatch, ScheduleSpec, ScheduleView } from "./types.ts";

type Row = Selectable<MonitoringSchedulesTable>;

/** The latest run of each schedule: one indexed look-up per schedule, however many runs it has. */
async function lastRuns(ctx: ServiceContext, ids: string[]): Promise<Map<string, RunView>> {
  const out = new Map<string, RunView>();
  if (ids.length === 0) return out;
  const rows = await ctx.db
    .selectFrom("monitoring_runs")
    .selectAll()
    .where("workspace_id", "=", ctx.workspace.id)
    .where("id", "in", (eb) =>
      eb
        .selectFrom("monitoring_schedules as s")
        .select((inner) =>
          inner
            .selectFrom("monitoring_runs as r")
            .select("r.id")
            .whereRef("r.schedule_id", "=", "s.id")
            .orderBy("r.created_at", "desc")
            .orderBy("r.id", "desc")
            .limit(1)
            .as("last_id"),
        )
        .where("s.workspace_id", "=", ctx.workspace.id)
        .where("s.id", "in", ids),
    )
    .execute();
  for (const row of rows) out.set(row.schedule_id, rowToRun(row));
  return out;
}

function toView(row: Row, last: RunView | null): ScheduleView {
  return {
    id: row.id,
    object: "monitoring_schedule",
    project_id: row.project_id,
    engines: scheduleColumns.engines.readNullable(row.engines),
    prompts: scheduleColumns.prompts.readNullable(row.prompts),
    samples: row.samples,
    schedule: scheduleColumns.schedule.read(row.schedule),
    timezone: row.timezone,
    alert_rules: scheduleColumns.alertRules.read(row.alert_rules).map(ruleView),
    active: row.active,
    batch: row.batch,
    next_run_at: row.next_run_at,
    last_run: last,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

async function findRow(ctx: ServiceContext, id: string): Promise<Row> {
  const row = await ctx.db
    .selectFrom("monitoring_schedules")
    .selectAll()
    .where("workspace_id", "=", ctx.workspace.id)
    .where("id", "=", id)
    .where("project_id", "in", liveProjectIds(ctx.db, ctx.workspace.id))
    .executeTakeFirst();
  if (row === undefined) throw notFound("monitoring schedule", id);
  return row;
}

interface Checked {
  engines: string[] | null;
  prompts: string[] | null;
  samples: number;
  schedule: ScheduleSpec;
  cron: string;
  timezone: string;
  rules: AlertRule[];
}

async function check(
  ctx: ServiceContext,
  projectId: string,
  input: Omit<ScheduleInput, "project_id">,
  kept: AlertRule[] = [],
): Promise<Checked> {
  const project = await getProject(ctx, projectId);
  const details: ErrorDetail[] = [];
  const timezone = input.timezone ?? "UTC";
  if (!isTimezone(timezone))
    details.push({ field: "timezone", issue: "must be an IANA time zone such as Europe/Paris or UTC" });
  const schedule = checkSpec(input.schedule, details);
  const cron = toCron(schedule, details);
  if (details.length === 0)
    checkCron(
      cron,
      isTimezone(timezone) ? timezone : "UTC",
      details,
      "cron" in schedule ? "schedule.cron" : "schedule",
    );
  const engines = input.engines === undefined || input.engines === null ? null : [...new Set(input.engines)];
  const known = await workspaceEngines(ctx);
  for (const [index, engine] of (engines ?? []).entries()) {
    if (!known.isKnown(engine)) details.push({ field: `engines[${index}]`, issue: `unknown engine '${engine}'` });
  }
  const prompts =
    input.prompts === undefined || input.prompts === null
      ? null
      : input.prompts.map((p) => p.trim()).filter((p) => p !== "");
  if ((prompts ?? project.prompts).length === 0) {
    details.push({
      field: "prompts",
      issue: "the project tracks no prompts; send prompts, or add some to the project",
    });
  }
  const rules = checkRules(
    input.alert_rules ?? [],
    project.competitors.map((c) => c.name),
    known.names(),
    details,
  );
  const keptChannels = storedChannels(kept);
  for (const [index, given] of (input.alert_rules ?? []).entries()) {
    const rule = rules[index];
    if (given.channels === undefined || rule === undefined) continue;
    const channels = await ctx.alertChannels(
      ctx,
      given.channels,
      keptChannels,
      `alert_rules[${index}].channels`,
      details,
    );
    rules[index] = channels === undefined ? rule : { ...rule, channels };
  }
  if (details.length > 0) throw validationError(details);
  checkEnginesInPlan(ctx, engines ?? project.engines);
  return { engines, prompts, samples: input.samples ?? 1, schedule, cron, timezone, rules };
}

/** A recurring analysis of a brand; the first run is the schedule's next slot. */
export async function createSchedule(ctx: ServiceContext, input: ScheduleInput): Promise<ScheduleView> {
  const checked = await check(ctx, input.project_id, input);
  const now = ctx.clock.now();
  const active = input.active ?? true;
  const row = {
    id: newId("mon"),
    workspace_id: ctx.workspace.id,
    project_id: input.project_id,
    engines: checked.engines === null ? null : toJson(checked.engines),
    prompts: checked.prompts === null ? null : toJson(checked.prompts),
    samples: checked.samples,
    schedule: toJson(checked.schedule),
    cron: checked.cron,
    timezone: checked.timezone,
    alert_rules: toJson(checked.rules),
    active,
    batch: input.batch ?? false,
    next_run_at: active ? nextSlot(checked.cron, checked.timezone, now).toISOString() : null,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  };
  await ctx.db.insertInto("monitoring_schedules").values(row).execute();
  return toView(row, null);
}

export async function listSchedules(
  ctx: ServiceContext,
  params: PageParams & { project_id?: string },
): Promise<Page<ScheduleView>> {
  let query = ctx.db
    .selectFrom("monitoring_schedules")
    .selectAll()
    .where("workspace_id", "=", ctx.workspace.id)
    .where("project_id", "in", liveProjectIds(ctx.db, ctx.workspace.id));
  if (params.project_id !== undefined) query = query.where("project_id", "=", params.project_id);
  const page = await fetchPage(query, params, (row) => row);
  const last = await lastRuns(
    ctx,
    page.data.map((row) => row.id),
  );
  return { ...page, data: page.data.map((row) => toView(row, last.get(row.id) ?? null)) };
}

export async function getSchedule(ctx: ServiceContext, id: string): Promise<ScheduleView> {
  const row = await findRow(ctx, id);
  return toView(row, (await lastRuns(ctx, [id])).get(id) ?? null);
}

/** Changes a schedule; a change of timing or reactivation recomputes the next slot from now. */
export async function updateSchedule(ctx: ServiceContext, id: string, patch: SchedulePatch): Promise<ScheduleView> {
  const row = await findRow(ctx, id);
  const current = toView(row, null);
  const storedRules = scheduleColumns.alertRules.read(row.alert_rules);
  const checked = await check(
    ctx,
    row.project_id,
    {
      engines: patch.engines === undefined ? current.engines : patch.engines,
      prompts: patch.prompts === undefined ? current.prompts : patch.prompts,
      samples: patch.samples ?? current.samples,
      schedule: patch.schedule ?? current.schedule,
      timezone: patch.timezone ?? current.timezone,
      // Rules sent again are renumbered; rules left out keep their ids (and their alert state).
      ...(patch.alert_rules === undefined ? {} : { alert_rules: patch.alert_rules }),
    },
    storedRules,
  );
  const rules = patch.alert_rules === undefined ? storedRules : checked.rules;
  const active = patch.active ?? current.active;
  const now = ctx.clock.now();
  const timingChanged = checked.cron !== row.cron || checked.timezone !== row.timezone || (active && !current.active);
  const next = !active
    ? null
    : timingChanged || row.next_run_at === null
      ? nextSlot(checked.cron, checked.timezone, now).toISOString()
      : row.next_run_at;
  await inTransaction(ctx, async (tx) => {
    await tx.db
      .updateTable("monitoring_schedules")
      .set({
        engines: checked.engines === null ? null : toJson(checked.engines),
        prompts: checked.prompts === null ? null : toJson(checked.prompts),
        samples: checked.samples,
        schedule: toJson(checked.schedule),
        cron: checked.cron,
        timezone: checked.timezone,
        alert_rules: toJson(rules),
        active,
        batch: patch.batch ?? current.batch,
        next_run_at: next,
        updated_at: now.toISOString(),
      })
      .where("workspace_id", "=", tx.workspace.id)
      .where("id", "=", id)
      .execute();
    if (patch.alert_rules !== undefined) await tx.db.deleteFrom("alert_states").where("schedule_id", "=", id).execute();
  });
  return getSchedule(ctx, id);
}

export async function deleteSchedule(
  ctx: ServiceContext,
  id: string,
): Promise<{ id: string; object: "monitoring_schedule"; deleted: true }> {
  await findRow(ctx, id);
  await ctx.db
    .deleteFrom("monitoring_schedules")
    .where("workspace_id", "=", ctx.workspace.id)
    .where("id", "=", id)
    .execute();
  return { id, object: "monitoring_schedule", deleted: true };
}

/** Runs a schedule now, outside its slots; the scheduled slots are unaffected. */
export async function runScheduleNow(ctx: ServiceContext, id: string): Promise<RunView> {
  const row = await findRow(ctx, id);
  const run = await startRun(ctx, row, `manual:${newId("run")}`);
  if (run === null) throw new Error("a manual slot collided");
  return run;
}

/**
 * Switches a schedule off without checking it again (a brand edited since may no longer pass the
 * checks a client's update runs): an experiment's samples schedule when its result is ready.
 * A schedule already gone is left gone.
 */
export async function switchScheduleOff(ctx: ServiceContext, id: string): Promise<void> {
  await ctx.db
    .updateTable("monitoring_schedules")
    .set({ active: false, next_run_at: null, updated_at: ctx.clock.now().toISOString() })
    .where("workspace_id", "=", ctx.workspace.id)
    .where("id", "=", id)
    .execute();
}
