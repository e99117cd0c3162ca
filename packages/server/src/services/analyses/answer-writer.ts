import type { Insertable, Selectable } from "kysely";
import type { AnalysesTable, ResultsTable } from "../../db/tables.ts";
import { countAnswers } from "../analytics/rollups.ts";
import { inTransaction, type ServiceContext } from "../context.ts";
import { resultColumns } from "../results/columns.ts";

/** Answers stored in one transaction at most. */
const GROUP = 200;

/**
 * Stores an analysis's answers in groups (issue 16): each answer is handed over as soon as it is
 * measured, and whatever has arrived meanwhile is written in one transaction with its counts in
 * the rollups (answers and analytics still never disagree). One transaction per burst of answers
 * instead of one per answer: the engines' next requests do not wait behind the writes, and the
 * rollups' upserts merge the answers sharing a day, engine and prompt. An answer not written when
 * a worker dies is asked again by the retried job, as before.
 */
export class AnswerWriter {
  readonly #ctx: ServiceContext;
  readonly #analysis: Selectable<AnalysesTable>;
  #pending: Insertable<ResultsTable>[] = [];
  #draining: Promise<void> | null = null;
  #failure: unknown = null;

  readonly #turn: () => Promise<void>;

  /** `turn` resolves when a group may be written (the analysis's `OnePerTurn`, shared with measuring). */
  constructor(ctx: ServiceContext, analysis: Selectable<AnalysesTable>, turn: () => Promise<void>) {
    this.#ctx = ctx;
    this.#analysis = analysis;
    this.#turn = turn;
  }

  add(result: Insertable<ResultsTable>): void {
    this.#pending.push(result);
    this.#draining ??= this.#drain();
  }

  /** Waits until every answer handed over is written; throws what a write threw. */
  async flush(): Promise<void> {
    while (this.#draining !== null) await this.#draining;
    if (this.#failure !== null) throw this.#failure;
  }

  async #drain(): Promise<void> {
    // Lets the answers arriving in the same burst join this group.
    await this.#turn();
    try {
      while (this.#pending.length > 0 && this.#failure === null) await this.#write(this.#pending.splice(0, GROUP));
    } catch (error) {
      this.#failure = error;
    } finally {
      this.#draining = null;
    }
  }

  async #write(group: Insertable<ResultsTable>[]): Promise<void> {
    await inTransaction(this.#ctx, async (tx) => {
      const inserted = await tx.db
        .insertInto("results")
        .values(group)
        .onConflict((oc) => oc.columns(["analysis_id", "prompt_index", "engine", "sample"]).doNothing())
        .returning("id")
        .execute();
      const stored = new Set(inserted.map((row) => row.id));
      await countAnswers(
        tx.db,
        group
          .filter((result) => stored.has(result.id) && result.status === "succeeded")
          .map((result) => ({
            ...this.#analysis,
            engine: result.engine,
            prompt: result.prompt,
            created_at: result.created_at,
            measure: resultColumns.measure.read(result.measure as string),
          })),
      );
    });
  }
}
