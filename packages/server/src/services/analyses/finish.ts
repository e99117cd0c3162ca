import type { Selectable } from "kysely";
import type { AnalysesTable } from "../../db/tables.ts";
import { toJson } from "../../lib/json.ts";
import { inTransaction, type ServiceContext } from "../context.ts";
import { conversationOutcome } from "../conversations/outcome.ts";
import { scriptColumns } from "../conversations/scripts.ts";
import { recordEvent } from "../events/events.ts";
import { resultColumns } from "../results/columns.ts";
import { addCostUsage, type CostTally, type CostView, costView, countAnswerCost } from "../usage/costs.ts";
import { releaseCredits } from "../usage/credits.ts";
import { billingPeriod } from "../usage/period.ts";
import type { AnalysisPlan } from "./plan.ts";
import { summarizeResults } from "./summary.ts";
import type { AnalysisSummary, EngineFailureSummary } from "./types.ts";
import { rowToAnalysis } from "./view.ts";

/**
 * Ends the analysis's conversations with what their turns measured: `completed` when every turn
 * was answered (then its entry, survival and drop-out), `stopped` when one failed or was not asked.
 */
async function closeConversations(
  ctx: ServiceContext,
  analysisId: string,
  results: readonly {
    conversation_id: string | null;
    turn: number;
    status: string;
    mentioned: unknown;
    error: string | null;
  }[],
  now: string,
): Promise<void> {
  const byConversation = new Map<string, typeof results>();
  for (const result of results) {
    if (result.conversation_id === null) continue;
    byConversation.set(result.conversation_id, [...(byConversation.get(result.conversation_id) ?? []), result]);
  }
  const conversations = await ctx.db
    .selectFrom("conversations")
    .select(["id", "turns"])
    .where("workspace_id", "=", ctx.workspace.id)
    .where("analysis_id", "=", analysisId)
    .where("status", "=", "running")
    .execute();
  for (const conversation of conversations) {
    const turns = [...(byConversation.get(conversation.id) ?? [])].sort((a, b) => a.turn - b.turn);
    const answered = turns.filter((t) => t.status === "succeeded");
    const planned = scriptColumns.turns.read(conversation.turns).length;
    const completed = answered.length === planned;
    const outcome = completed
      ? conversationOutcome(answered.map((t) => ({ turn: t.turn, mentioned: Boolean(t.mentioned) })))
      : null;
    const failedTurn = turns.find((t) => t.status !== "succeeded");
    await ctx.db
      .updateTable("conversations")
      .set({
        status: completed ? "completed" : "stopped",
        turns_answered: answered.length,
        entry_turn: outcome?.entryTurn ?? null,
        survived: outcome === null ? null : outcome.survived,
        drop_turn: outcome?.dropTurn ?? null,
        stop_reason:
          completed || failedTurn === undefined
            ? null
            : `turn ${failedTurn.turn}: ${resultColumns.error.readNullable(failedTurn.error)?.message ?? "failed"}`,
        completed_at: now,
      })
      .where("workspace_id", "=", ctx.workspace.id)
      .where("id", "=", conversation.id)
      .execute();
  }
}

/** An analysis that has just finished, as its final transaction sees it. */
interface FinishedAnalysis {
  analysis: Selectable<AnalysesTable>;
  summary: AnalysisSummary;
  /** What its answers cost (ADR 0029). */
  cost: CostView;
}

/**
 * What else happens when an analysis finishes, in its final transaction: monitoring closes its run
 * (and fires alerts), reports write its report. Wired where the worker is assembled (`app/worker.ts`),
 * so that analyses depend on neither.
 */
export type AnalysisFinishedHook = (ctx: ServiceContext, finished: FinishedAnalysis) => Promise<void>;

/**
 * Finishes an analysis whose answers are all stored, in one transaction: its final status (failed
 * only if every answer failed), its summary, the credits of failed answers given back,
 * `analysis.completed`, then the hooks. A second attempt finishing the same analysis (a lease that
 * expired under a live handler) changes nothing.
 */
export async function finishAnalysis(
  ctx: ServiceContext,
  row: Selectable<AnalysesTable>,
  plan: AnalysisPlan,
  hooks: readonly AnalysisFinishedHook[],
): Promise<void> {
  await inTransaction(ctx, async (tx) => {
    const results = await tx.db
      .selectFrom("results")
      .select([
        "engine",
        "prompt",
        "status",
        "measure",
        "mentioned",
        "position",
        "sentiment",
        "score",
        "error",
        "input_tokens",
        "output_tokens",
        "search_calls",
        "cost_micros",
        "conversation_id",
        "turn",
      ])
      .where("workspace_id", "=", row.workspace_id)
      .where("analysis_id", "=", row.id)
      .execute();
    const failures = new Map<string, EngineFailureSummary>();
    const costs = new Map<string, CostTally>();
    for (const result of results) {
      if (result.status === "succeeded") countAnswerCost(costs, result.engine, result);
      if (result.status !== "failed") continue;
      const entry = failures.get(result.engine);
      if (entry === undefined) {
        const error = resultColumns.error.readNullable(result.error) ?? { message: "unknown failure" };
        failures.set(result.engine, {
          engine: result.engine,
          code: "ENGINE_FAILURE",
          message: error.message,
          answers: 1,
        });
      } else entry.answers++;
    }
    const succeeded = results.filter((r) => r.status === "succeeded").length;
    const now = tx.clock.now().toISOString();
    // The guarded status change comes first: a second attempt finishing the same analysis changes
    // nothing and must not release credits again.
    const finished = await tx.db
      .updateTable("analyses")
      .set({ status: succeeded > 0 ? "completed" : "failed", completed_at: now, updated_at: now })
      .where("workspace_id", "=", row.workspace_id)
      .where("id", "=", row.id)
      .where("status", "=", "running")
      .executeTakeFirst();
    if (finished.numUpdatedRows === 0n) return; // finished meanwhile by another attempt
    // Counted once, in the period the analysis finished in: usage's cost per engine and month.
    await addCostUsage(
      tx.db,
      { workspaceId: row.workspace_id, periodStart: billingPeriod(tx.workspace.billingAnchor, tx.clock.now()).start },
      costs,
    );
    const released = await releaseCredits(tx, {
      charges: [...failures.values()].map((f) => ({ engine: f.engine, credits: f.answers })),
      reference: row.id,
    });
    await closeConversations(tx, row.id, results, now);
    const summary = summarizeResults(
      // A conversation's turns are measured on its own (conversations), not among the prompts.
      results.filter((result) => result.conversation_id === null),
      plan.project.competitors.map((c) => c.name),
      plan.engines,
      plan.prompts,
    );
    await tx.db
      .updateTable("analyses")
      .set({
        summary: toJson(summary),
        errors: toJson([...failures.values()]),
        credits_released: row.credits_released + released,
      })
      .where("workspace_id", "=", row.workspace_id)
      .where("id", "=", row.id)
      .execute();
    const final = await tx.db
      .selectFrom("analyses")
      .selectAll()
      .where("workspace_id", "=", row.workspace_id)
      .where("id", "=", row.id)
      .executeTakeFirstOrThrow();
    const counts = { succeeded, failed: results.length - succeeded, costs };
    await recordEvent(tx, "analysis.completed", { object: rowToAnalysis(final, counts) });
    for (const hook of hooks) await hook(tx, { analysis: final, summary, cost: costView(costs) });
  });
}
