import type { Deps } from "../context.ts";
import { inTransaction } from "../context.ts";
import type { JobHandler, JobOutcome } from "../jobs/types.ts";
import { resultColumns } from "../results/columns.ts";
import { markCounted } from "../results/store.ts";
import { countAnswers } from "./rollups.ts";

export const REBUILD_ROLLUPS_JOB = "rollups.rebuild";

const PAGE = 500;

/**
 * Counts into the rollups the answers not counted yet: those stored before rollups existed (the
 * migration that made them queues this job; later answers are stored counted). A page at a time,
 * each counted and marked in one transaction, so that a crash or a retry never counts one twice.
 */
export function rebuildRollupsHandler(deps: Deps): JobHandler {
  return async (): Promise<JobOutcome> => {
    let after = "";
    for (;;) {
      const rows = await deps.db
        .selectFrom("results")
        .select(["id", "workspace_id", "project_id", "engine", "prompt", "created_at", "measure", "status"])
        .where("rolled_up", "=", false)
        .where("id", ">", after)
        .orderBy("id")
        .limit(PAGE)
        .execute();
      if (rows.length === 0) return { status: "succeeded" };
      after = rows[rows.length - 1]?.id ?? after;
      await inTransaction(deps, async (tx) => {
        // Those another attempt counted meanwhile are not marked again, nor counted.
        const todo = await markCounted(
          tx,
          rows.map((row) => row.id),
        );
        await countAnswers(
          tx.db,
          rows.flatMap((row) => {
            const measure = row.status === "succeeded" ? resultColumns.measure.readNullable(row.measure) : null;
            return todo.has(row.id) && measure !== null ? [{ ...row, measure }] : [];
          }),
        );
      });
    }
  };
}
