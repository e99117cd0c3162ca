import type { Deps } from "../context.ts";
import { liveProjectIds } from "../projects/live.ts";
import { workspaceContext } from "../workspaces/workspaces.ts";
import { DEFAULT_SYNC_DAYS, syncConnection } from "./ga4.ts";

/** A connection is synced once a day. */
const EVERY_MS = 86_400_000;
/** After Google failed (not refused), the next try comes sooner. */
const RETRY_MS = 3_600_000;
/**
 * What a daily sync reads once a first one has read its 30 days: GA4 keeps processing a day's
 * sessions for up to two days, so the last three are read again.
 */
const DAILY_DAYS = 3;

/**
 * The worker's daily GA4 sync (issue 26): each connection whose `next_sync_at` has passed, at most
 * `limit` per tick. Two workers may see one due: moving `next_sync_at` on is the claim, and only
 * the one whose update matched syncs it. A failure is recorded on the connection (`last_error`)
 * and logged without the key; the next try is in an hour when Google failed, a day when it refused.
 *
 * @returns the connections synced.
 */
export async function syncDueGa4(deps: Deps, limit = 5): Promise<number> {
  const now = deps.clock.now();
  const due = await deps.db
    .selectFrom("traffic_ga4_connections")
    .selectAll()
    .where("next_sync_at", "<=", now.toISOString())
    .where("project_id", "in", liveProjectIds(deps.db))
    .orderBy("next_sync_at")
    .limit(limit)
    .execute();
  let synced = 0;
  for (const row of due) {
    const claimed = await deps.db
      .updateTable("traffic_ga4_connections")
      .set({ next_sync_at: new Date(now.getTime() + EVERY_MS).toISOString() })
      .where("project_id", "=", row.project_id)
      .where("next_sync_at", "=", row.next_sync_at)
      .executeTakeFirst();
    if (claimed.numUpdatedRows === 0n) continue; // another worker took it
    try {
      const ctx = await workspaceContext(deps, row.workspace_id, { type: "system" });
      await syncConnection(ctx, row, row.last_synced_at === null ? DEFAULT_SYNC_DAYS : DAILY_DAYS);
      synced++;
    } catch (error) {
      const { code, message } = error as { code?: string; message: string };
      if (code === "ENGINE_FAILURE") {
        await deps.db
          .updateTable("traffic_ga4_connections")
          .set({ next_sync_at: new Date(now.getTime() + RETRY_MS).toISOString() })
          .where("project_id", "=", row.project_id)
          .execute();
      }
      deps.logger.warn({ project: row.project_id, code, reason: message }, "GA4 sync failed");
    }
  }
  return synced;
}
