import type { Selectable } from "kysely";
import type { Tables } from "../../db/tables.ts";
import { notFound } from "../../errors/api-error.ts";
import type { ServiceContext } from "../context.ts";
import { fetchPage, type Page, type PageParams } from "../pagination.ts";
import { liveProjectIds } from "../projects/live.ts";
import { ruleView } from "./channels.ts";
import { alertColumns } from "./columns.ts";
import type { AlertView, FiredAlertView } from "./types.ts";

type AlertRow = Selectable<Tables["alerts"]>;

/** An alert as it fired: what a report freezes. */
export function rowToFiredAlert(row: Omit<AlertRow, "workspace_id" | "rule_id">): FiredAlertView {
  return {
    id: row.id,
    object: "alert",
    project_id: row.project_id,
    schedule_id: row.schedule_id,
    run_id: row.run_id,
    rule: ruleView(alertColumns.rule.read(row.rule)),
    engine: row.engine,
    observed: row.observed,
    previous: row.previous,
    message: row.message,
    created_at: row.created_at,
  };
}

/** An alert as the API shows it now: as it fired, and whether it has been worked through. */
export function rowToAlert(row: Omit<AlertRow, "workspace_id" | "rule_id">): AlertView {
  return {
    ...rowToFiredAlert(row),
    status: row.acknowledged_at === null ? "open" : "acknowledged",
    acknowledged_at: row.acknowledged_at,
    acknowledged_by: row.acknowledged_by,
  };
}

export async function listAlerts(
  ctx: ServiceContext,
  params: PageParams & { project_id?: string; schedule_id?: string; status?: AlertView["status"] },
): Promise<Page<AlertView>> {
  let query = ctx.db
    .selectFrom("alerts")
    .selectAll()
    .where("workspace_id", "=", ctx.workspace.id)
    .where("project_id", "in", liveProjectIds(ctx.db, ctx.workspace.id));
  if (params.project_id !== undefined) query = query.where("project_id", "=", params.project_id);
  if (params.schedule_id !== undefined) query = query.where("schedule_id", "=", params.schedule_id);
  if (params.status === "open") query = query.where("acknowledged_at", "is", null);
  if (params.status === "acknowledged") query = query.where("acknowledged_at", "is not", null);
  return fetchPage(query, params, rowToAlert);
}

/** Who did it, as an alert keeps it: a member's user id or an API key's id. */
function actorId(ctx: ServiceContext): string | null {
  return ctx.actor.type === "user" || ctx.actor.type === "api_key" ? ctx.actor.id : null;
}

/**
 * Marks an alert as worked through (`acknowledged: true`) or opens it again. Acknowledging an
 * acknowledged alert keeps who did it first and when; reopening an open one changes nothing.
 */
export async function setAlertAcknowledged(
  ctx: ServiceContext,
  alertId: string,
  acknowledged: boolean,
): Promise<AlertView> {
  // A deleted brand's alerts are gone with it, as from the list.
  const scoped = () =>
    ctx.db
      .selectFrom("alerts")
      .selectAll()
      .where("workspace_id", "=", ctx.workspace.id)
      .where("project_id", "in", liveProjectIds(ctx.db, ctx.workspace.id));
  const row = await scoped().where("id", "=", alertId).executeTakeFirst();
  if (row === undefined) throw notFound("alert", alertId);
  // Conditional on the state it changes, so that of two acknowledgements at once the first is kept.
  await ctx.db
    .updateTable("alerts")
    .set(
      acknowledged
        ? { acknowledged_at: ctx.clock.now().toISOString(), acknowledged_by: actorId(ctx) }
        : { acknowledged_at: null, acknowledged_by: null },
    )
    .where("workspace_id", "=", ctx.workspace.id)
    .where("id", "=", alertId)
    .where("acknowledged_at", acknowledged ? "is" : "is not", null)
    .execute();
  return rowToAlert(await scoped().where("id", "=", alertId).executeTakeFirstOrThrow());
}
