import type { Selectable } from "kysely";
import type { RemeasuresTable } from "../../db/tables.ts";
import { notFound, validationError } from "../../errors/api-error.ts";
import { newId } from "../../lib/ids.ts";
import { inTransaction, type ServiceContext } from "../context.ts";
import { enqueueJob } from "../jobs/store.ts";
import { SCORE_VERSION } from "../measurement/score.ts";
import { fetchPage, type Page, type PageParams } from "../pagination.ts";
import { timeRange } from "../time-range.ts";
import type { Remeasure } from "./types.ts";

export const REMEASURE_JOB = "projects.remeasure";

/** Attempts of the job before the re-measure is marked failed; each resumes where the last stopped. */
const REMEASURE_MAX_ATTEMPTS = 5;

function rowToRemeasure(row: Selectable<RemeasuresTable>): Remeasure {
  const status = row.status as Remeasure["status"];
  return {
    id: row.id,
    object: "remeasure",
    project_id: row.project_id,
    status,
    from: row.range_from,
    to: row.range_to,
    total: Math.max(row.total, row.done),
    done: row.done,
    changed: row.changed,
    score_version: row.score_version,
    error: row.error,
    created_at: row.created_at,
    started_at: row.started_at,
    completed_at: row.completed_at,
  };
}

/**
 * Queues a re-measure of the brand's stored successful answers (those stored in [from, to), and
 * before now: later ones are measured by the current rules anyway). One at a time per brand: while
 * one is queued or running, another is refused with VALIDATION_ERROR naming it (the spec has no
 * conflict code). Nothing is charged, except judge calls the re-measure makes (see judge/).
 */
export async function startRemeasure(
  ctx: ServiceContext,
  projectId: string,
  input: { from?: string; to?: string },
): Promise<Remeasure> {
  const range = timeRange(input);
  return inTransaction(ctx, async (tx) => {
    // Concurrent requests for one brand take turns here (PostgreSQL; SQLite has one writer).
    const project = await tx.sql
      .lockRows(
        tx.db
          .selectFrom("projects")
          .select("id")
          .where("workspace_id", "=", tx.workspace.id)
          .where("id", "=", projectId)
          .where("deleted_at", "is", null),
      )
      .executeTakeFirst();
    if (project === undefined) throw notFound("project", projectId);
    const now = tx.clock.now().toISOString();

    const active = await tx.db
      .selectFrom("remeasures")
      .leftJoin("jobs", "jobs.id", "remeasures.job_id")
      .select(["remeasures.id", "jobs.status as job_status"])
      .where("remeasures.workspace_id", "=", tx.workspace.id)
      .where("remeasures.project_id", "=", projectId)
      .where("remeasures.status", "in", ["queued", "running"])
      .executeTakeFirst();
    if (active !== undefined) {
      if (active.job_status === "dead" || active.job_status === null) {
        // Its job was dead-lettered without the handler seeing it (a worker that kept crashing).
        await tx.db
          .updateTable("remeasures")
          .set({
            status: "failed",
            error: "its job was abandoned after repeated crashes",
            completed_at: now,
            updated_at: now,
          })
          .where("workspace_id", "=", tx.workspace.id)
          .where("id", "=", active.id)
          .execute();
      } else {
        throw validationError(
          [{ field: "id", issue: "already has a re-measure queued or running", remeasure_id: active.id }],
          `A re-measure of this brand (${active.id}) is already queued or running; wait for it to finish.`,
        );
      }
    }

    let count = tx.db
      .selectFrom("results")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("workspace_id", "=", tx.workspace.id)
      .where("project_id", "=", projectId)
      .where("status", "=", "succeeded")
      .where("created_at", "<=", now);
    if (range.from !== undefined) count = count.where("created_at", ">=", range.from);
    if (range.to !== undefined) count = count.where("created_at", "<", range.to);
    const total = Number((await count.executeTakeFirstOrThrow()).n);

    const id = newId("rem");
    const jobId = await enqueueJob(tx, {
      kind: REMEASURE_JOB,
      payload: { remeasure_id: id },
      maxAttempts: REMEASURE_MAX_ATTEMPTS,
    });
    const row: Selectable<RemeasuresTable> = {
      id,
      workspace_id: tx.workspace.id,
      project_id: projectId,
      status: "queued",
      range_from: range.from ?? null,
      range_to: range.to ?? null,
      total,
      done: 0,
      changed: 0,
      cursor: "",
      score_version: SCORE_VERSION,
      job_id: jobId,
      error: null,
      created_at: now,
      started_at: null,
      completed_at: null,
      updated_at: now,
    };
    await tx.db.insertInto("remeasures").values(row).execute();
    return rowToRemeasure(row);
  });
}

async function ownProject(ctx: ServiceContext, projectId: string): Promise<void> {
  const project = await ctx.db
    .selectFrom("projects")
    .select("id")
    .where("workspace_id", "=", ctx.workspace.id)
    .where("id", "=", projectId)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
  if (project === undefined) throw notFound("project", projectId);
}

export async function getRemeasure(ctx: ServiceContext, projectId: string, id: string): Promise<Remeasure> {
  await ownProject(ctx, projectId);
  const row = await ctx.db
    .selectFrom("remeasures")
    .selectAll()
    .where("workspace_id", "=", ctx.workspace.id)
    .where("project_id", "=", projectId)
    .where("id", "=", id)
    .executeTakeFirst();
  if (row === undefined) throw notFound("remeasure", id);
  return rowToRemeasure(row);
}

export async function listRemeasures(
  ctx: ServiceContext,
  projectId: string,
  params: PageParams,
): Promise<Page<Remeasure>> {
  await ownProject(ctx, projectId);
  const query = ctx.db
    .selectFrom("remeasures")
    .selectAll()
    .where("workspace_id", "=", ctx.workspace.id)
    .where("project_id", "=", projectId);
  return fetchPage(query, params, rowToRemeasure);
}
