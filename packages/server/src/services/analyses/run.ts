import { OnePerTurn } from "../../lib/turns.ts";
import type { Deps } from "../context.ts";
import type { AskResult } from "../engines/registry.ts";
import { type EngineQuery, failure } from "../engines/types.ts";
import { workspaceEngines } from "../engines/workspace-engines.ts";
import { enqueueJob } from "../jobs/store.ts";
import type { ClaimedJob, JobHandler, JobOutcome } from "../jobs/types.ts";
import { measureResult } from "../results/measure.ts";
import { workspaceContext } from "../workspaces/workspaces.ts";
import { AnswerWriter } from "./answer-writer.ts";
import { batchRound, markCollected } from "./batches.ts";
import { converse } from "./converse.ts";
import { type AnalysisFinishedHook, finishAnalysis } from "./finish.ts";
import { planAnalysis, type WorkItem } from "./plan.ts";
import { RUN_ANALYSIS_JOB } from "./types.ts";

/** Answers asked at once by one analysis; each engine's own limit applies within it. */
const ANSWERS_IN_FLIGHT = 64;
/** Conversations carried on at once by one analysis (each asks one turn at a time). */
const CONVERSATIONS_IN_FLIGHT = 16;

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
    // The workspace's own keys answer where it has them; the server's everywhere else.
    const engines = await workspaceEngines(ctx);
    /** Where an answer is asked from: its country, unless that is only the brand's market and the engine cannot be placed there. */
    const countryOf = (item: WorkItem): string | null => {
      if (item.country === null || item.strictCountry) return item.country;
      const reach = engines.reachOf(item.engine);
      return reach !== null && reach.country !== null && (reach.placesIn?.(item.country) ?? true) ? item.country : null;
    };
    const queryOf = (item: WorkItem): EngineQuery => ({
      prompt: item.prompt,
      country: countryOf(item),
      language: row.language,
      sample: item.sample,
      seed: analysisId,
      simulation: plan.measured,
      persona: item.persona,
    });
    // Measuring and writing take their turns between rounds of I/O: the engines' responses, and the
    // next requests they free, never wait behind a burst's CPU.
    const turns = new OnePerTurn();
    const writer = new AnswerWriter(ctx, () => turns.wait());
    /** Measures an answer and hands it to the writer (answers and their rollup counts are written together). */
    const store = async (item: WorkItem, asked: AskResult) => {
      await turns.wait();
      // Measured before the transaction, which never waits on an engine (the judge may be asked).
      const { outcome } = asked;
      const measured = outcome.ok
        ? { ...outcome, measure: await measureResult(ctx, plan.compiled, { ...outcome.answer, prompt: item.prompt }) }
        : outcome;
      writer.add({
        ...item,
        ...asked,
        country: countryOf(item),
        analysis: row,
        outcome: measured,
        createdAt: deps.clock.now().toISOString(),
      });
    };

    // A batch analysis sends its batch engines' answers to their vendors' batch APIs (ADR 0030).
    const batched = new Map<string, WorkItem[]>();
    const live: WorkItem[] = [];
    for (const item of plan.work) {
      if (row.batch && engines.batchOf(item.engine) !== null) {
        batched.set(item.engine, [...(batched.get(item.engine) ?? []), item]);
      } else live.push(item);
    }
    const round = batched.size === 0 ? null : await batchRound(ctx, engines, row, batched, queryOf);
    live.push(...(round?.live ?? []));
    for (const { item, asked } of round?.answered ?? []) await store(item, asked);
    if (round !== null && round.collected.length > 0) {
      await writer.flush();
      await markCollected(ctx, round.collected);
    }

    await Promise.all([
      pool(live, ANSWERS_IN_FLIGHT, async (item) => store(item, await engines.ask(item.engine, queryOf(item)))),
      // Each conversation is a chain of turns; conversations run side by side.
      pool(plan.conversations, CONVERSATIONS_IN_FLIGHT, async (conversation) =>
        converse(conversation, {
          brand: plan.project.name,
          language: row.language,
          seed: analysisId,
          simulation: plan.measured,
          ask: (engine, query) => engines.ask(engine, query),
          store: async (item, turn, asked) => {
            await turns.wait();
            const { outcome } = asked;
            const measured = outcome.ok
              ? {
                  ...outcome,
                  measure: await measureResult(ctx, plan.compiled, { ...outcome.answer, prompt: item.prompt }),
                }
              : outcome;
            writer.add({
              ...item,
              ...asked,
              ...turn,
              analysis: row,
              outcome: measured,
              createdAt: deps.clock.now().toISOString(),
            });
            return measured.ok ? measured.measure : null;
          },
          skip: (item, turn, reason) => {
            const outcome = failure(`not asked: ${reason}`);
            if (outcome.ok) return;
            writer.add({
              ...item,
              ...turn,
              analysis: row,
              outcome,
              attempts: 0,
              latencyMs: 0,
              costMicros: null,
              createdAt: deps.clock.now().toISOString(),
            });
          },
        }),
      ),
    ]);
    await writer.flush();

    if (round !== null && round.pending > 0) {
      // The vendors are still answering: look again later, in a job of its own (a poll is not a failed attempt).
      await enqueueJob(ctx, {
        kind: RUN_ANALYSIS_JOB,
        payload: { analysis_id: analysisId },
        runAt: new Date(ctx.clock.now().getTime() + engines.batchPollMs),
        maxAttempts: 5,
      });
      return { status: "succeeded" };
    }
    await finishAnalysis(ctx, row, plan, hooks);
    return { status: "succeeded" };
  };
}
