import { notFound } from "../../errors/api-error.ts";
import { inTransaction, type ServiceContext } from "../context.ts";
import { nextSlot } from "../monitoring/schedule-spec.ts";
import { purgeAt, RESTORE_DAYS } from "../projects/live.ts";
import { rowToProject } from "../projects/row.ts";
import type { Project } from "../projects/types.ts";

interface ProjectDeleted {
  id: string;
  object: "project";
  deleted: true;
  deleted_at: string;
  purge_at: string;
}

/**
 * Deletes a brand softly: from now on it, its answers, analyses, schedules, alerts and reports are
 * found nowhere, its schedules do not run and no analysis of it starts; everything is kept for
 * RESTORE_DAYS days (restoreProject), then purged by the retention worker (purge-projects.ts). The spec lists no
 * deletion event, so none is recorded. Deleting a deleted brand is NOT_FOUND.
 */
export async function deleteProject(ctx: ServiceContext, id: string): Promise<ProjectDeleted> {
  const now = ctx.clock.now().toISOString();
  const by = ctx.actor.type === "user" || ctx.actor.type === "api_key" ? ctx.actor.id : null;
  const result = await ctx.db
    .updateTable("projects")
    .set({ deleted_at: now, deleted_by: by })
    .where("workspace_id", "=", ctx.workspace.id)
    .where("id", "=", id)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
  if (result.numUpdatedRows === 0n) throw notFound("project", id);
  return { id, object: "project", deleted: true, deleted_at: now, purge_at: purgeAt(now) };
}

/**
 * Brings a deleted brand back with everything it had, before it is purged. Its schedules resume
 * from the next slot after now: the slots missed while it was deleted are not caught up (no run,
 * and no credits, on restoring). A brand that is not deleted, or past its restore window, is NOT_FOUND.
 */
export async function restoreProject(ctx: ServiceContext, id: string): Promise<Project> {
  return inTransaction(ctx, async (tx) => {
    const now = tx.clock.now();
    const oldest = new Date(now.getTime() - RESTORE_DAYS * 86_400_000).toISOString();
    const row = await tx.sql
      .lockRows(
        tx.db
          .selectFrom("projects")
          .selectAll()
          .where("workspace_id", "=", tx.workspace.id)
          .where("id", "=", id)
          .where("deleted_at", "is not", null)
          .where("deleted_at", ">", oldest),
      )
      .executeTakeFirst();
    if (row === undefined) throw notFound("deleted project", id);
    await tx.db
      .updateTable("projects")
      .set({ deleted_at: null, deleted_by: null })
      .where("workspace_id", "=", tx.workspace.id)
      .where("id", "=", id)
      .execute();
    const overdue = await tx.db
      .selectFrom("monitoring_schedules")
      .select(["id", "cron", "timezone"])
      .where("workspace_id", "=", tx.workspace.id)
      .where("project_id", "=", id)
      .where("active", "=", true)
      .where("next_run_at", "<=", now.toISOString())
      .execute();
    for (const schedule of overdue) {
      await tx.db
        .updateTable("monitoring_schedules")
        .set({ next_run_at: nextSlot(schedule.cron, schedule.timezone, now).toISOString() })
        .where("id", "=", schedule.id)
        .execute();
    }
    return rowToProject({ ...row, deleted_at: null, deleted_by: null });
  });
}
