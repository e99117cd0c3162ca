import { isDeepStrictEqual } from "node:util";
import type { Insertable, Selectable } from "kysely";
import type { Db } from "../../db/database.ts";
import type { AnalysesTable, ResultsTable } from "../../db/tables.ts";
import { newId } from "../../lib/ids.ts";
import { toJson } from "../../lib/json.ts";
import { inTransaction, type ServiceContext } from "../context.ts";
import type { EngineOutcome } from "../engines/types.ts";
import type { AnswerMeasure } from "../measurement/types.ts";
import { resultColumns } from "./columns.ts";

/**
 * How answers are stored (the only writer of `results`): inserted once measured, given a new
 * measure, marked counted, stripped of their text. The rollups that count them are analytics'
 * (analytics/rollups.ts): callers count what these functions return in the same transaction, so
 * that answers and analytics never disagree.
 */

/** An engine's outcome as stored: a failure, or an answer with its measure (measure.ts). */
type MeasuredOutcome =
  | Extract<EngineOutcome, { ok: false }>
  | (Extract<EngineOutcome, { ok: true }> & { measure: AnswerMeasure });

/** One answer of an analysis (or its failure), to store. */
export interface NewResult {
  analysis: Pick<Selectable<AnalysesTable>, "id" | "workspace_id" | "project_id" | "score_version" | "created_at">;
  /** Which answer of the analysis: a prompt (its index) of an engine, the nth time. */
  engine: string;
  prompt: string;
  promptIndex: number;
  sample: number;
  outcome: MeasuredOutcome;
  attempts: number;
  latencyMs: number;
  /** Micro-USD; a failure costs nothing (vendors bill no failure). */
  costMicros: number | null;
  createdAt: string;
  /** The persona (at its version) and country it was asked under (issue 29). */
  personaId?: string | null;
  personaVersion?: number | null;
  country?: string | null;
  /** For a turn of a conversation: the conversation, and the turn (from 1). */
  conversationId?: string | null;
  turn?: number;
}

/** A stored answer with what the rollups count of it (analytics/rollups.ts's `CountedAnswer`). */
export interface MeasuredAnswer {
  workspace_id: string;
  project_id: string;
  engine: string;
  prompt: string;
  created_at: string;
  measure: AnswerMeasure;
}

/** The columns of `results` that hold an answer's measure; a failed answer (null) has nothing measured. */
function measureColumns(measure: AnswerMeasure | null) {
  return {
    measure: measure === null ? null : toJson(measure),
    mentioned: measure?.brand.mentioned ?? false,
    position: measure?.brand.position ?? null,
    sentiment: measure?.brand.sentiment ?? null,
    brand_cited: measure?.brand_cited ?? false,
    citation_count: measure?.citations.length ?? 0,
    brand_citation_count: measure?.citations.filter((c) => c.brand).length ?? 0,
    score: measure?.score ?? null,
  };
}

function resultRow(result: NewResult): Insertable<ResultsTable> {
  const { analysis, outcome } = result;
  const answer = outcome.ok ? outcome.answer : null;
  const measure = outcome.ok ? outcome.measure : null;
  // Every row has every column: answers are written in groups, one statement for many rows.
  return {
    id: newId("res"),
    workspace_id: analysis.workspace_id,
    project_id: analysis.project_id,
    analysis_id: analysis.id,
    engine: result.engine,
    prompt: result.prompt,
    prompt_index: result.promptIndex,
    sample: result.sample,
    attempts: result.attempts,
    latency_ms: result.latencyMs,
    created_at: result.createdAt,
    // The partition on PostgreSQL: the analysis's month, the same for every attempt at this answer.
    month: analysis.created_at.slice(0, 7),
    // Counted in the rollups in the transaction that stores it (insertResults).
    rolled_up: true,
    status: outcome.ok ? "succeeded" : "failed",
    // The vendor's error, already scrubbed of secrets by the engine registry.
    error: outcome.ok ? null : toJson({ code: outcome.error.code, message: outcome.error.message }),
    model: answer?.model ?? null,
    text: answer?.text ?? null,
    searches: toJson(answer?.searches ?? []),
    input_tokens: answer?.usage.inputTokens ?? null,
    output_tokens: answer?.usage.outputTokens ?? null,
    search_calls: answer?.usage.searchCalls ?? null,
    cost_micros: outcome.ok ? result.costMicros : null,
    persona_id: result.personaId ?? null,
    persona_version: result.personaVersion ?? null,
    country: result.country ?? null,
    conversation_id: result.conversationId ?? null,
    turn: result.turn ?? 0,
    response_id: answer?.responseId ?? null,
    ...measureColumns(measure),
    score_version: measure?.score_version ?? analysis.score_version,
  };
}

/**
 * Stores answers in one statement; one already stored (the same answer of the same analysis, from
 * an earlier attempt of its job) is left as it is. Returns the succeeded answers it stored, which
 * the caller counts in the rollups (`countAnswers`) in the same transaction: they are stored as
 * counted.
 */
export async function insertResults(ctx: { db: Db }, results: readonly NewResult[]): Promise<MeasuredAnswer[]> {
  if (results.length === 0) return [];
  const rows = results.map(resultRow);
  const inserted = await ctx.db
    .insertInto("results")
    .values(rows)
    // The one unique key an answer can meet again is (analysis, prompt, engine, sample): with the
    // month on PostgreSQL's partitioned table, without it on SQLite. Naming none fits both.
    .onConflict((oc) => oc.doNothing())
    .returning("id")
    .execute();
  const stored = new Set(inserted.map((row) => row.id));
  return results.flatMap(({ outcome }, i) => {
    const row = rows[i];
    // A conversation's turns are measured on its own page, not counted among the brand's prompts.
    if (row === undefined || !stored.has(row.id) || !outcome.ok || row.conversation_id !== null) return [];
    const { workspace_id, project_id, engine, prompt, created_at } = row;
    return [{ workspace_id, project_id, engine, prompt, created_at, measure: outcome.measure }];
  });
}

/** An answer whose measure `replaceMeasures` rewrote. */
export interface ReplacedMeasure {
  id: string;
  /** What it held before (null if it had none). */
  old: AnswerMeasure | null;
  measure: AnswerMeasure;
  /** Whether the rollups count it: then the caller replaces `old`'s counts with `measure`'s. */
  rolledUp: boolean;
}

/**
 * Gives the workspace's answers their new measures, in the caller's transaction (or one of its
 * own): locks them, rewrites those whose measure changed, and returns those, in the order given.
 * An answer that is gone, or whose measure is unchanged, is not written. The caller moves the
 * rollups' counts of the returned ones (`recountAnswers`) in the same transaction.
 */
export async function replaceMeasures(
  ctx: ServiceContext,
  replacements: readonly { id: string; measure: AnswerMeasure }[],
): Promise<ReplacedMeasure[]> {
  if (replacements.length === 0) return [];
  return inTransaction(ctx, async (tx) => {
    // The answers as they are now, locked: what the rollups count of them is what is subtracted.
    const current = await tx.sql
      .lockRows(
        tx.db
          .selectFrom("results")
          .select(["id", "measure", "rolled_up", "conversation_id"])
          .where("workspace_id", "=", tx.workspace.id)
          .where(
            "id",
            "in",
            replacements.map((r) => r.id),
          ),
      )
      .execute();
    const now = new Map(current.map((row) => [row.id, row]));
    const replaced: ReplacedMeasure[] = [];
    for (const { id, measure } of replacements) {
      const row = now.get(id);
      if (row === undefined) continue;
      const old = resultColumns.measure.readNullable(row.measure);
      if (isDeepStrictEqual(old, measure)) continue;
      await tx.db
        .updateTable("results")
        .set({ ...measureColumns(measure), score_version: measure.score_version })
        .where("workspace_id", "=", tx.workspace.id)
        .where("id", "=", id)
        .execute();
      // A conversation's turns are never in the rollups (insertResults).
      replaced.push({ id, old, measure, rolledUp: Boolean(row.rolled_up) && row.conversation_id === null });
    }
    return replaced;
  });
}

/**
 * Marks counted, in the caller's transaction, those of the answers `ids` not counted in the rollups
 * yet, and returns them: the caller counts exactly those (`countAnswers`) in the same transaction.
 * An answer marked meanwhile by another attempt is not returned, so none is counted twice.
 */
export async function markCounted(ctx: { db: Db }, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const marked = await ctx.db
    .updateTable("results")
    .set({ rolled_up: true })
    .where("id", "in", ids)
    .where("rolled_up", "=", false)
    .returning("id")
    .execute();
  return new Set(marked.map((row) => row.id));
}

/**
 * Removes the texts of at most `limit` answers stored before `before` (retention): each keeps its
 * measure, counts and citations (re-measuring skips it). Returns how many it removed.
 */
export async function removeAnswerTexts(ctx: { db: Db }, before: string, limit: number): Promise<number> {
  const { db } = ctx;
  const result = await db
    .updateTable("results")
    .set({ text: null })
    .where(
      "id",
      "in",
      db.selectFrom("results").select("id").where("created_at", "<", before).where("text", "is not", null).limit(limit),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
