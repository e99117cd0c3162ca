import { type Deps, inTransaction } from "../context.ts";
import { liveProjectIds } from "../projects/live.ts";
import { workspaceContext } from "../workspaces/workspaces.ts";
import { startRun } from "./runs.ts";
import { latestSlot, nextSlot } from "./schedule-spec.ts";

/**
 * Starts the runs that are due. For each schedule whose next run time has passed, the run is for the
 * LATEST slot at or before now (after downtime: one catch-up run, not one per missed slot), and the
 * next run time moves to the first slot after now. Two workers may both see a schedule due: the
 * optimistic update of next_run_at and the unique slot per schedule let exactly one of them run it.
 *
 * @returns the runs started.
 */
export async function runDueSchedules(deps: Deps, limit = 100): Promise<number> {
  const now = deps.clock.now();
  const due = await deps.db
    .selectFrom("monitoring_schedules")
    .selectAll()
    .where("active", "=", true)
    .where("next_run_at", "<=", now.toISOString())
    // A deleted brand's schedules stop at once; restoring it moves them to their next slot.
    .where("project_id", "in", liveProjectIds(deps.db))
    .orderBy("next_run_at")
    .limit(limit)
    .execute();
  let started = 0;
  for (const schedule of due) {
    const ctx = await workspaceContext(deps, schedule.workspace_id, { type: "system" });
    const slot = latestSlot(schedule.cron, schedule.timezone, now).toISOString();
    const next = nextSlot(schedule.cron, schedule.timezone, now).toISOString();
    try {
      // The claim (moving next_run_at) and the run commit together: a crash between them cannot
      // lose a slot, and a failure (a quota store outage) leaves the schedule due for the next tick.
      const run = await inTransaction(ctx, async (tx) => {
        const claimed = await tx.db
          .updateTable("monitoring_schedules")
          .set({ next_run_at: next })
          .where("id", "=", schedule.id)
          .where("next_run_at", "=", schedule.next_run_at)
          .executeTakeFirst();
        if (claimed.numUpdatedRows === 0n) return null; // another worker took it
        return startRun(tx, schedule, slot);
      });
      if (run !== null) started++;
    } catch (error) {
      deps.logger.error({ err: error, schedule: schedule.id }, "could not start a monitoring run; will retry");
    }
  }
  return started;
}
