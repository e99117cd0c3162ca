import type { Selectable } from "kysely";
import type { AnalysesTable } from "../../db/tables.ts";
import { newId } from "../../lib/ids.ts";
import type { ServiceContext } from "../context.ts";
import type { AskResult } from "../engines/registry.ts";
import { type EngineOutcome, type EngineQuery, failure } from "../engines/types.ts";
import type { WorkspaceEngines } from "../engines/workspace-engines.ts";
import type { WorkItem } from "./plan.ts";

/** A vendor that could not be read for this long after submission has lost the batch: its answers fail. */
const LOST_AFTER_MS = 26 * 3600 * 1000;

/** What the batches of one run of the job came to. */
export interface BatchRound {
  /** Answers to ask live after all: their vendor refused the batch. */
  live: WorkItem[];
  /** Answers a vendor's batch returned (or failed), to store. */
  answered: { item: WorkItem; asked: AskResult }[];
  /** Batches still running: the job looks again later. */
  pending: number;
  /** Batches whose answers are all in `answered`: marked collected once those are stored. */
  collected: string[];
}

/** Our id for an answer in its engine's batch (each engine has its own batch). */
function requestId(item: WorkItem): string {
  return `p${item.promptIndex}-s${item.sample}`;
}

/**
 * The batch engines' share of an analysis's answers (ADR 0030): submits each engine's answers as
 * one vendor batch, or looks at the batch submitted earlier and takes its answers once it has
 * ended. A vendor refusing the batch gets its answers asked live; a batch that cannot be read is
 * looked at again on the next round, until it counts as lost.
 */
export async function batchRound(
  ctx: ServiceContext,
  engines: WorkspaceEngines,
  row: Selectable<AnalysesTable>,
  byEngine: Map<string, WorkItem[]>,
  queryOf: (item: WorkItem) => EngineQuery,
): Promise<BatchRound> {
  const round: BatchRound = { live: [], answered: [], pending: 0, collected: [] };
  const batches = await ctx.db
    .selectFrom("engine_batches")
    .selectAll()
    .where("workspace_id", "=", row.workspace_id)
    .where("analysis_id", "=", row.id)
    .execute();
  for (const [engine, items] of byEngine) {
    const api = engines.batchOf(engine);
    const batch = batches.find((b) => b.engine === engine);
    if (api === null || batch?.status === "collected") {
      round.live.push(...items);
      continue;
    }
    const signal = AbortSignal.timeout(engines.timeoutMs);
    if (batch === undefined) {
      try {
        const vendorId = await api.submit(
          items.map((item) => ({ id: requestId(item), query: queryOf(item) })),
          signal,
        );
        await ctx.db
          .insertInto("engine_batches")
          .values({
            id: newId("bat"),
            workspace_id: row.workspace_id,
            analysis_id: row.id,
            engine,
            vendor_batch_id: vendorId,
            requests: items.length,
            status: "submitted",
            created_at: ctx.clock.now().toISOString(),
            collected_at: null,
          })
          .execute();
        round.pending++;
      } catch (error) {
        ctx.logger.warn(
          { engine, analysis: row.id, error: engines.scrubMessage(String((error as Error)?.message ?? error)) },
          "the vendor refused the batch; asking its answers live",
        );
        round.live.push(...items);
      }
      continue;
    }
    let outcomes: Map<string, EngineOutcome>;
    let reason: string | null;
    try {
      const poll = await api.poll(batch.vendor_batch_id, signal);
      if (!poll.done) {
        round.pending++;
        continue;
      }
      outcomes = poll.outcomes;
      reason = poll.reason;
    } catch (error) {
      const lost = ctx.clock.now().getTime() - Date.parse(batch.created_at) > LOST_AFTER_MS;
      ctx.logger.warn(
        { engine, analysis: row.id, error: engines.scrubMessage(String((error as Error)?.message ?? error)) },
        lost
          ? "the vendor's batch could not be read for 26 hours; its answers fail"
          : "the vendor's batch could not be read",
      );
      if (!lost) {
        round.pending++;
        continue;
      }
      outcomes = new Map();
      reason = "the vendor's batch could not be read for 26 hours";
    }
    for (const item of items) {
      const outcome =
        outcomes.get(requestId(item)) ??
        failure(`${engine}: not answered by the vendor's batch${reason === null ? "" : ` (${reason})`}`);
      round.answered.push({ item, asked: engines.settleBatchAnswer(engine, outcome) });
    }
    round.collected.push(batch.id);
  }
  return round;
}

/**
 * Marks batches collected once their answers are stored: a crash before this reads the batch
 * again on the next round, and answers stored already are kept as they are.
 */
export async function markCollected(ctx: ServiceContext, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await ctx.db
    .updateTable("engine_batches")
    .set({ status: "collected", collected_at: ctx.clock.now().toISOString() })
    .where("workspace_id", "=", ctx.workspace.id)
    .where("id", "in", ids)
    .execute();
}
