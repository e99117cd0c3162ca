import type { Db } from "../../db/database.ts";

/** How long a deleted brand can be restored before the retention worker purges it and its data. */
export const RESTORE_DAYS = 30;

/**
 * The ids of the live (not deleted) brands, of one workspace or of all: rows keyed by a project are
 * read through it (`where("project_id", "in", liveProjectIds(...))`), so that a deleted brand's
 * answers, analyses, schedules, alerts and reports disappear at once and come back on restore.
 */
export function liveProjectIds(db: Db, workspaceId?: string) {
  let query = db.selectFrom("projects").select("id").where("deleted_at", "is", null);
  if (workspaceId !== undefined) query = query.where("workspace_id", "=", workspaceId);
  return query;
}

/** When a brand deleted at `deletedAt` is purged. */
export function purgeAt(deletedAt: string): string {
  return new Date(new Date(deletedAt).getTime() + RESTORE_DAYS * 86_400_000).toISOString();
}
