import { countAnswers } from "../analytics/rollups.ts";
import { type Deps, inTransaction } from "../context.ts";
import type { EngineQuery } from "../engines/types.ts";
import type { ClaimedJob, JobHandler, JobOutcome } from "../jobs/types.ts";
import { measureWithJudge } from "../judge/judge.ts";
import { resultColumns } from "../results/columns.ts";
import { workspaceContext } from "../workspaces/workspaces.ts";
import { answerToResult } from "./answer.ts";
import { type AnalysisFinishedHook, finishAnalysis } from "./finish.ts";
import { planAnalysis } from "./plan.ts";

/** Answers asked at once by one analysis; each engine's own limit applies within it. */
const ANSWERS_IN_FLIGHT = 64;

async function pool<T>(items: T[], size: number, run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(size, items.length) }, async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await run(item);
    }
  });
  await Promise.all(lanes);
}

/**
 * The `analysis.run` job: plans the answers not asked yet, asks them (storing and measuring each as
 * it comes), then finishes the analysis in one transaction with `hooks` (monitoring, reports). One
 * engine failing leaves the others' answers intact; the analysis fails only if every answer failed.
 */
export function runAnalysisHandler(deps: Deps, hooks: readonly AnalysisFinishedHook[] = []): JobHandler {
  return async (job: ClaimedJob): Promise<JobOutcome> => {
    const analysisId = String(job.payload.analysis_id);
    const row = await deps.db.selectFrom("analyses").selectAll().where("id", "=", analysisId).executeTakeFirst();
    if (row === undefined) return { status: "dead", error: `analysis ${analysisId} is missing` };
    if (row.status === "completed" || row.status === "failed") return { status: "succeeded" };
    const ctx = await workspaceContext(deps, row.workspace_id, { type: "system" });
    const startedAt = row.started_at ?? ctx.clock.now().toISOString();
    await deps.db
      .updateTable("analyses")
      .set({ status: "running", started_at: startedAt, updated_at: ctx.clock.now().toISOString() })
      .where("workspace_id", "=", row.workspace_id)
      .where("id", "=", analysisId)
      .where("status", "in", ["queued", "running"])
      .execute();

    const plan = await planAnalysis(ctx, row);
    await pool(plan.work, ANSWERS_IN_FLIGHT, async (item) => {
      const query: EngineQuery = {
        prompt: item.prompt,
        country: row.country,
        language: row.language,
        sample: item.sample,
        seed: analysisId,
        simulation: plan.measured,
      };
      const asked = await deps.engines.ask(item.engine, query);
      // The rules, and the judge (when configured) for names they are unsure of: before the
      // transaction, which never waits on an engine.
      const measured = asked.outcome.ok
        ? await measureWithJudge(ctx, plan.compiled, { ...asked.outcome.answer, prompt: item.prompt })
        : undefined;
      const result = answerToResult(row, item, asked, plan.compiled, deps.clock.now().toISOString(), measured);
      // The answer and its counts in the rollups, together: analytics never disagree with results.
      await inTransaction(ctx, async (tx) => {
        const stored = await tx.db
          .insertInto("results")
          .values(result)
          .onConflict((oc) => oc.columns(["analysis_id", "prompt_index", "engine", "sample"]).doNothing())
          .executeTakeFirst();
        if ((stored.numInsertedOrUpdatedRows ?? 0n) === 0n || !asked.outcome.ok) return;
        const measure = resultColumns.measure.read(result.measure as string);
        await countAnswers(tx.db, [
          { ...row, engine: item.engine, prompt: item.prompt, created_at: result.created_at, measure },
        ]);
      });
    });

    await finishAnalysis(ctx, row, plan, hooks);
    return { status: "succeeded" };
  };
}
