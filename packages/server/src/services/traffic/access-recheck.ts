import { sql } from "kysely";
import { ApiError } from "../../errors/api-error.ts";
import { type Deps, inTransaction } from "../context.ts";
import { enqueueJob } from "../jobs/store.ts";
import type { JobHandler } from "../jobs/types.ts";
import { liveProjectIds } from "../projects/live.ts";
import { getProject } from "../projects/projects.ts";
import type { PageFetcher } from "../websites/fetcher.ts";
import { workspaceContext } from "../workspaces/workspaces.ts";
import { type AccessOptions, brandDomains, checkAccess } from "./access.ts";

/**
 * The daily re-check of the access audit (issue 26). Each scheduler tick queues a check job for
 * the brands that are due, at most 20 a tick: those whose audit is a day old, and those with AI bot
 * hits in the last 30 days whose audit has not started. A brand's sites are read only when its
 * traffic or its audit was asked for, never because it exists. One job per brand at a time: the
 * brand's row is locked while its pending job is looked for, so two workers ticking at once
 * queue one.
 */
export const ACCESS_CHECK_JOB = "traffic.check_access";
const RECHECK_AFTER_MS = 86_400_000;
const PER_TICK = 20;
const TRAFFIC_DAYS = 30;

interface Due {
  workspace_id: string;
  project_id: string;
}

export async function queueAccessChecks(deps: Deps, limit = PER_TICK): Promise<number> {
  const now = deps.clock.now();
  const cutoff = new Date(now.getTime() - RECHECK_AFTER_MS).toISOString();
  const stale: Due[] = await deps.db
    .selectFrom("traffic_access_checks")
    .select(["workspace_id", "project_id"])
    .where("project_id", "in", liveProjectIds(deps.db))
    .groupBy(["workspace_id", "project_id"])
    .having((eb) => eb.fn.min("checked_at"), "<=", cutoff)
    .orderBy((eb) => eb.fn.min("checked_at"))
    .limit(limit)
    .execute();
  const since = new Date(now.getTime() - TRAFFIC_DAYS * 86_400_000).toISOString().slice(0, 10);
  const unchecked: Due[] =
    stale.length >= limit
      ? []
      : await deps.db
          .selectFrom("projects")
          .select(["workspace_id", "id as project_id"])
          .where("deleted_at", "is", null)
          .where(({ exists, not, selectFrom }) =>
            not(
              exists(
                selectFrom("traffic_access_checks")
                  .select(sql.lit(1).as("one"))
                  .whereRef("traffic_access_checks.project_id", "=", "projects.id"),
              ),
            ),
          )
          .where(({ exists, selectFrom }) =>
            exists(
              selectFrom("traffic_bot_hits")
                .select(sql.lit(1).as("one"))
                .whereRef("traffic_bot_hits.project_id", "=", "projects.id")
                .where("traffic_bot_hits.day", ">=", since),
            ),
          )
          .orderBy("id")
          .limit(limit - stale.length)
          .execute();
  let queued = 0;
  for (const due of [...stale, ...unchecked]) {
    const payload = { workspace_id: due.workspace_id, project_id: due.project_id };
    try {
      const added = await inTransaction(deps, async (tx) => {
        await tx.sql.lockRows(tx.db.selectFrom("projects").select("id").where("id", "=", due.project_id)).execute();
        // Queued or running, or failed within the day: a failing check waits for the next day.
        const pending = await tx.db
          .selectFrom("jobs")
          .select("id")
          .where((eb) =>
            eb.or([
              eb("status", "in", ["pending", "running"]),
              eb.and([eb("status", "=", "dead"), eb("updated_at", ">", cutoff)]),
            ]),
          )
          .where("kind", "=", ACCESS_CHECK_JOB)
          .where("payload", "=", JSON.stringify(payload))
          .executeTakeFirst();
        if (pending !== undefined) return false;
        // One attempt: the next day's check is the retry (a network failure is no failure: it is
        // stored as the domain's `error`).
        await enqueueJob(tx, { kind: ACCESS_CHECK_JOB, payload, maxAttempts: 1 });
        return true;
      });
      if (added) queued++;
    } catch (error) {
      deps.logger.error({ err: error, project: due.project_id }, "could not queue an access check; will retry");
    }
  }
  return queued;
}

/**
 * Checks one brand's domains, unless they were all checked within the day (a job queued twice,
 * or a brand whose audit was read meanwhile). A brand deleted since is left alone.
 */
export function checkAccessHandler(deps: Deps, fetcher?: (deps: Deps) => PageFetcher): JobHandler {
  return async (job) => {
    const workspaceId = String(job.payload.workspace_id ?? "");
    const projectId = String(job.payload.project_id ?? "");
    try {
      const ctx = await workspaceContext(deps, workspaceId, { type: "system" });
      const project = await getProject(ctx, projectId);
      const cutoff = new Date(deps.clock.now().getTime() - RECHECK_AFTER_MS).toISOString();
      const rows = await ctx.db
        .selectFrom("traffic_access_checks")
        .select(["domain", "checked_at"])
        .where("workspace_id", "=", workspaceId)
        .where("project_id", "=", projectId)
        .execute();
      const fresh = brandDomains(project).every((d) => rows.some((r) => r.domain === d && r.checked_at > cutoff));
      if (fresh) return { status: "succeeded" };
      const options: AccessOptions = fetcher === undefined ? {} : { fetcher: fetcher(deps) };
      await checkAccess(ctx, projectId, options);
      return { status: "succeeded" };
    } catch (error) {
      if (error instanceof ApiError && error.code === "NOT_FOUND") return { status: "succeeded" };
      throw error;
    }
  };
}
