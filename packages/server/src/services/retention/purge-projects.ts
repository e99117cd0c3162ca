import type { Deps } from "../context.ts";
import { RESTORE_DAYS } from "../projects/live.ts";

/** Brands purged per pass: each is one transaction, so one pass never holds locks for long. */
const PROJECTS_PER_PASS = 20;

/**
 * Purges the brands deleted more than RESTORE_DAYS days before `now`, each with every row keyed by
 * it: answers, analyses and their vendor batches, rollups, schedules with their runs, alert states
 * and alerts, reports with their share links, opportunity sets, re-measures, digest subscriptions
 * and the notifications of its alerts and digests. Children go before parents, in one transaction
 * per brand. The event log keeps what it recorded (events are the workspace's history).
 *
 * @returns the brands purged.
 */
export async function purgeDeletedProjects(deps: Deps, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - RESTORE_DAYS * 86_400_000).toISOString();
  const due = await deps.db
    .selectFrom("projects")
    .select(["id", "workspace_id"])
    .where("deleted_at", "is not", null)
    .where("deleted_at", "<=", cutoff)
    .orderBy("deleted_at")
    .limit(PROJECTS_PER_PASS)
    .execute();
  let purged = 0;
  for (const { id, workspace_id: workspaceId } of due) {
    await deps.db.transaction().execute(async (tx) => {
      // Still deleted and past its window (it may have been restored since it was read).
      const still = await tx
        .selectFrom("projects")
        .select("id")
        .where("id", "=", id)
        .where("deleted_at", "<=", cutoff)
        .executeTakeFirst();
      if (still === undefined) return;
      const analyses = tx.selectFrom("analyses").select("id").where("project_id", "=", id);
      const schedules = tx.selectFrom("monitoring_schedules").select("id").where("project_id", "=", id);
      const reports = tx.selectFrom("reports").select("id").where("project_id", "=", id);
      const alerts = tx.selectFrom("alerts").select("id").where("project_id", "=", id);
      await tx
        .deleteFrom("notifications")
        .where("workspace_id", "=", workspaceId)
        .where((eb) => eb.or([eb("subject_id", "in", alerts), eb("subject_id", "in", reports)]))
        .execute();
      await tx.deleteFrom("report_shares").where("report_id", "in", reports).execute();
      await tx.deleteFrom("alert_states").where("schedule_id", "in", schedules).execute();
      await tx.deleteFrom("engine_batches").where("analysis_id", "in", analyses).execute();
      for (const table of [
        "result_rollups",
        "engine_rollups",
        "source_rollups",
        "source_totals",
        "results",
        "alerts",
        "reports",
        "monitoring_runs",
        "opportunity_sets",
        "remeasures",
        "digest_subscriptions",
        "analyses",
        "monitoring_schedules",
        "traffic_bot_hits",
        "traffic_referrals",
        "traffic_imports",
        "traffic_ingest_tokens",
        "traffic_access_checks",
        "traffic_ga4_connections",
        "changes",
      ] as const) {
        await tx.deleteFrom(table).where("project_id", "=", id).execute();
      }
      await tx.deleteFrom("projects").where("id", "=", id).execute();
      purged++;
    });
  }
  return purged;
}
