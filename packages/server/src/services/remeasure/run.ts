import type { Selectable } from "kysely";
import type { RemeasuresTable } from "../../db/tables.ts";
import { toJson } from "../../lib/json.ts";
import { analysisColumns } from "../analyses/columns.ts";
import { summarizeResults } from "../analyses/summary.ts";
import { type CountedAnswer, recountAnswers } from "../analytics/rollups.ts";
import { type Deps, inTransaction, type ServiceContext } from "../context.ts";
import type { ClaimedJob, JobHandler, JobOutcome } from "../jobs/types.ts";
import { type CompiledProject, compileProject } from "../measurement/measure.ts";
import type { AnswerInput, AnswerMeasure } from "../measurement/types.ts";
import { measuredProject } from "../projects/measured.ts";
import { getProject } from "../projects/projects.ts";
import { resultColumns } from "../results/columns.ts";
import { measureResult, storedAnswerInput } from "../results/measure.ts";
import { replaceMeasures } from "../results/store.ts";
import { workspaceContext } from "../workspaces/workspaces.ts";

/** Measures one stored answer again (`measureResult`, unless a test stands in a worker that dies). */
export type Remeasurer = (
  ctx: ServiceContext,
  compiled: CompiledProject,
  answer: AnswerInput,
) => Promise<AnswerMeasure>;

interface Options {
  /** Answers re-measured per transaction. */
  pageSize?: number;
  measure?: Remeasurer;
}

const PAGE = 100;

type StoredAnswer = Awaited<ReturnType<typeof readPage>>[number];

async function readPage(ctx: ServiceContext, row: Selectable<RemeasuresTable>, after: string, size: number) {
  let query = ctx.db
    .selectFrom("results")
    .select(["id", "analysis_id", "engine", "prompt", "text", "measure", "created_at"])
    .where("workspace_id", "=", row.workspace_id)
    .where("project_id", "=", row.project_id)
    .where("status", "=", "succeeded")
    .where("created_at", "<=", row.created_at)
    .where("id", ">", after);
  if (row.range_from !== null) query = query.where("created_at", ">=", row.range_from);
  if (row.range_to !== null) query = query.where("created_at", "<", row.range_to);
  return query.orderBy("id").limit(size).execute();
}

/** Each completed analysis touched gets its summary again, from its answers as they now are. */
async function resummarize(ctx: ServiceContext, analysisIds: string[], competitors: string[]): Promise<void> {
  for (const analysisId of analysisIds) {
    const analysis = await ctx.db
      .selectFrom("analyses")
      .select(["id", "engines", "prompts", "summary"])
      .where("workspace_id", "=", ctx.workspace.id)
      .where("id", "=", analysisId)
      .executeTakeFirst();
    if (analysis === undefined || analysis.summary === null) continue;
    const results = await ctx.db
      .selectFrom("results")
      .select(["engine", "prompt", "status", "measure", "mentioned", "position", "sentiment", "score"])
      .where("workspace_id", "=", ctx.workspace.id)
      .where("analysis_id", "=", analysisId)
      // A conversation's turns are not in the analysis's summary (finish.ts).
      .where("conversation_id", "is", null)
      .execute();
    const summary = summarizeResults(
      results,
      competitors,
      analysisColumns.engines.read(analysis.engines),
      analysisColumns.prompts.read(analysis.prompts),
    );
    await ctx.db
      .updateTable("analyses")
      .set({ summary: toJson(summary) })
      .where("workspace_id", "=", ctx.workspace.id)
      .where("id", "=", analysisId)
      .execute();
  }
}

/**
 * Re-measures one page after `row.cursor`, then, in one transaction: checks that no other attempt
 * did this page meanwhile (the cursor has not moved), rewrites the answers' measures, replaces their
 * counts in the rollups, refreshes the summaries of their analyses, and moves the cursor. A crash
 * before the commit leaves everything as it was; after it, the next attempt starts past the page.
 * Engine calls (the judge) happen before the transaction, never inside it.
 *
 * @returns whether answers remain after this page.
 */
async function remeasurePage(
  ctx: ServiceContext,
  row: Selectable<RemeasuresTable>,
  compiled: CompiledProject,
  options: Options,
): Promise<boolean> {
  const size = options.pageSize ?? PAGE;
  const measure = options.measure ?? measureResult;
  const page = await readPage(ctx, row, row.cursor, size);
  const rewritten: { answer: StoredAnswer; measure: AnswerMeasure }[] = [];
  for (const answer of page) {
    const input = storedAnswerInput({ ...answer, measure: resultColumns.measure.readNullable(answer.measure) });
    if (input === null) continue;
    rewritten.push({ answer, measure: await measure(ctx, compiled, input) });
  }
  const updatedAt = ctx.clock.now().toISOString();
  const last = page[page.length - 1]?.id ?? row.cursor;
  const more = page.length === size;
  return inTransaction(ctx, async (tx) => {
    const current = await tx.sql
      .lockRows(
        tx.db
          .selectFrom("remeasures")
          .select(["cursor", "status"])
          .where("workspace_id", "=", row.workspace_id)
          .where("id", "=", row.id),
      )
      .executeTakeFirst();
    // Another attempt (a lease that expired under a live handler) did this page: start again from it.
    if (current === undefined || current.cursor !== row.cursor || current.status !== "running") return true;
    const counted = (answer: StoredAnswer, measure: AnswerMeasure): CountedAnswer => ({
      workspace_id: row.workspace_id,
      project_id: row.project_id,
      engine: answer.engine,
      prompt: answer.prompt,
      created_at: answer.created_at,
      measure,
    });
    // Rewrites the answers whose measure changed; those counted get their counts replaced.
    const replaced = await replaceMeasures(
      tx,
      rewritten.map(({ answer, measure }) => ({ id: answer.id, measure })),
    );
    const read = new Map(rewritten.map(({ answer }) => [answer.id, answer]));
    const before: CountedAnswer[] = [];
    const after: CountedAnswer[] = [];
    for (const { id, old, measure, rolledUp } of replaced) {
      const answer = read.get(id);
      // Answers not counted yet are counted by the rebuild job, with whatever measure they then hold.
      if (answer === undefined || !rolledUp) continue;
      if (old !== null) before.push(counted(answer, old));
      after.push(counted(answer, measure));
    }
    const changed = replaced.length;
    await recountAnswers(tx.db, before, after);
    if (changed > 0) {
      const analyses = [...new Set(rewritten.map((r) => r.answer.analysis_id))];
      await resummarize(
        tx,
        analyses,
        compiled.project.competitors.map((c) => c.name),
      );
    }
    await tx.db
      .updateTable("remeasures")
      .set((eb) => ({
        cursor: last,
        done: eb("done", "+", page.length),
        changed: eb("changed", "+", changed),
        updated_at: updatedAt,
        ...(more ? {} : { status: "completed", completed_at: updatedAt }),
      }))
      .where("workspace_id", "=", row.workspace_id)
      .where("id", "=", row.id)
      .execute();
    return more;
  });
}

/**
 * The `projects.remeasure` job: pages through the brand's stored answers under the current rules and
 * the brand's current settings. Resumes after the last committed page; after the last attempt the
 * re-measure is marked failed (the pages done stay done, and correctly counted).
 */
export function remeasureHandler(deps: Deps, options: Options = {}): JobHandler {
  return async (job: ClaimedJob): Promise<JobOutcome> => {
    const id = String(job.payload.remeasure_id);
    const initial = await deps.db.selectFrom("remeasures").selectAll().where("id", "=", id).executeTakeFirst();
    if (initial === undefined) return { status: "dead", error: `remeasure ${id} is missing` };
    if (initial.status === "completed" || initial.status === "failed") return { status: "succeeded" };
    const ctx = await workspaceContext(deps, initial.workspace_id, { type: "system" });
    try {
      const now = ctx.clock.now().toISOString();
      await deps.db
        .updateTable("remeasures")
        .set({ status: "running", started_at: initial.started_at ?? now, updated_at: now })
        .where("workspace_id", "=", initial.workspace_id)
        .where("id", "=", id)
        .where("status", "in", ["queued", "running"])
        .execute();
      const compiled = compileProject(measuredProject(await getProject(ctx, initial.project_id)));
      for (;;) {
        const row = await deps.db
          .selectFrom("remeasures")
          .selectAll()
          .where("workspace_id", "=", initial.workspace_id)
          .where("id", "=", id)
          .executeTakeFirstOrThrow();
        if (row.status !== "running") return { status: "succeeded" };
        if (!(await remeasurePage(ctx, row, compiled, options))) return { status: "succeeded" };
      }
    } catch (error) {
      if (job.attempt < job.maxAttempts) throw error;
      const now = ctx.clock.now().toISOString();
      await deps.db
        .updateTable("remeasures")
        .set({
          status: "failed",
          error: "re-measuring failed repeatedly; the answers done so far keep their new measure",
          completed_at: now,
          updated_at: now,
        })
        .where("workspace_id", "=", initial.workspace_id)
        .where("id", "=", id)
        .where("status", "in", ["queued", "running"])
        .execute();
      return { status: "dead", error: (error as Error).message };
    }
  };
}
