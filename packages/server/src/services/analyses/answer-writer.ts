import { countAnswers } from "../analytics/rollups.ts";
import { inTransaction, type ServiceContext } from "../context.ts";
import { insertResults, type NewResult } from "../results/store.ts";

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
  #pending: NewResult[] = [];
  #draining: Promise<void> | null = null;
  #failure: unknown = null;

  readonly #turn: () => Promise<void>;

  /** `turn` resolves when a group may be written (the analysis's `OnePerTurn`, shared with measuring). */
  constructor(ctx: ServiceContext, turn: () => Promise<void>) {
    this.#ctx = ctx;
    this.#turn = turn;
  }

  add(result: NewResult): void {
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

  async #write(group: NewResult[]): Promise<void> {
    await inTransaction(this.#ctx, async (tx) => {
      await countAnswers(tx.db, await insertResults(tx, group));
    });
  }
}
