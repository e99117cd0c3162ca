import { CompiledQuery, type Insertable, PostgresAdapter } from "kysely";
import type { Db } from "../../db/database.ts";
import type { EngineRollupsTable, ResultRollupsTable, SourceRollupsTable, SourceTotalsTable } from "../../db/tables.ts";
import { sha256Hex } from "../../lib/crypto.ts";
import type { AnswerMeasure } from "../measurement/types.ts";
import type { Counts } from "./figures.ts";
import { bucketOf } from "./period.ts";

/** What of one answer the rollups count: where it belongs, and what was measured in it. */
export interface CountedAnswer {
  workspace_id: string;
  project_id: string;
  engine: string;
  prompt: string;
  /** When it was stored (ISO 8601): its UTC day is its bucket. */
  created_at: string;
  measure: AnswerMeasure;
}

/** The counts every rollup row of answers carries (result_rollups, engine_rollups). */
export const COUNT_COLUMNS = [
  "answers",
  "mentioned",
  "cited",
  "with_citations",
  "position_sum",
  "position_count",
  "sentiment_sum",
  "sentiment_count",
  "citations",
  "brand_citations",
  "score_sum",
] as const;

export const promptKey = (prompt: string) => sha256Hex(prompt).slice(0, 24);

/** The brand's (`subject` "") and each competitor's counts in one answer. */
function subjectCounts(measure: AnswerMeasure): ({ subject: string } & Counts)[] {
  const withCitations = measure.citations.length > 0 ? 1 : 0;
  const brand = {
    subject: "",
    answers: 1,
    mentioned: measure.brand.mentioned ? 1 : 0,
    cited: measure.brand_cited ? 1 : 0,
    with_citations: withCitations,
    position_sum: measure.brand.position ?? 0,
    position_count: measure.brand.position === null ? 0 : 1,
    sentiment_sum: measure.brand.sentiment ?? 0,
    sentiment_count: measure.brand.sentiment === null ? 0 : 1,
    citations: measure.citations.length,
    brand_citations: measure.citations.filter((c) => c.brand).length,
    score_sum: measure.score,
  };
  const competitors = measure.competitors.map((competitor) => {
    const own = measure.citations.filter((c) => c.competitor === competitor.name).length;
    return {
      subject: competitor.name,
      answers: 1,
      mentioned: competitor.mentioned ? 1 : 0,
      cited: own > 0 ? 1 : 0,
      with_citations: withCitations,
      position_sum: competitor.position ?? 0,
      position_count: competitor.position === null ? 0 : 1,
      sentiment_sum: 0,
      sentiment_count: 0,
      citations: own,
      brand_citations: 0,
      score_sum: 0,
    };
  });
  return [brand, ...competitors];
}

/** The day (YYYY-MM-DD, UTC) an answer is counted in, and the Monday of its week. */
function startsOf(answer: CountedAnswer): { grain: "day" | "week"; start: string }[] {
  const day = answer.created_at.slice(0, 10);
  return [
    { grain: "day", start: day },
    { grain: "week", start: bucketOf(day, "week") },
  ];
}

/** The `result_rollups` rows one answer adds to: per grain, one for the brand and one per competitor. */
function resultIncrements(answer: CountedAnswer): Insertable<ResultRollupsTable>[] {
  const subjects = subjectCounts(answer.measure);
  return startsOf(answer).flatMap(({ grain, start }) =>
    subjects.map((counts) => ({
      project_id: answer.project_id,
      grain,
      start,
      engine: answer.engine,
      prompt_key: promptKey(answer.prompt),
      workspace_id: answer.workspace_id,
      prompt: answer.prompt,
      ...counts,
    })),
  );
}

/** The `engine_rollups` rows one answer adds to: its day's, one for the brand and one per competitor. */
function engineIncrements(answer: CountedAnswer): Insertable<EngineRollupsTable>[] {
  return subjectCounts(answer.measure).map((counts) => ({
    project_id: answer.project_id,
    day: answer.created_at.slice(0, 10),
    engine: answer.engine,
    workspace_id: answer.workspace_id,
    ...counts,
  }));
}

/** The `source_rollups` rows one answer's citations add to: per grain, one per cited URL. */
function sourceIncrements(answer: CountedAnswer): Insertable<SourceRollupsTable>[] {
  const byUrl = new Map<string, Omit<Insertable<SourceRollupsTable>, "grain" | "start">>();
  for (const citation of answer.measure.citations) {
    const found = byUrl.get(citation.url);
    if (found !== undefined) {
      found.citations = Number(found.citations) + 1;
      continue;
    }
    byUrl.set(citation.url, {
      project_id: answer.project_id,
      engine: answer.engine,
      url_key: sha256Hex(citation.url).slice(0, 24),
      workspace_id: answer.workspace_id,
      url: citation.url,
      domain: citation.domain,
      kind: citation.brand ? "brand" : citation.competitor !== null ? "competitor" : "other",
      competitor: citation.brand ? null : citation.competitor,
      citations: 1,
      answers: 1,
    });
  }
  return startsOf(answer).flatMap(({ grain, start }) => [...byUrl.values()].map((row) => ({ ...row, grain, start })));
}

/** The `source_totals` rows one answer's citations add to: its source rollups without the engine. */
function sourceTotalIncrements(answer: CountedAnswer): Insertable<SourceTotalsTable>[] {
  return sourceIncrements(answer).map(({ engine: _engine, ...row }) => row);
}

/** Sums rows with the same key, so that one statement never touches a row twice. */
function merge<T extends Record<string, unknown>>(rows: T[], key: (row: T) => string, sum: readonly string[]): T[] {
  const merged = new Map<string, T>();
  for (const row of rows) {
    const id = key(row);
    const found = merged.get(id);
    if (found === undefined) {
      merged.set(id, { ...row });
      continue;
    }
    const target = found as Record<string, unknown>;
    for (const column of sum) target[column] = Number(target[column]) + Number(row[column]);
  }
  // In key order: concurrent writers (two analyses of one project) then lock the rows they share
  // in the same order, so PostgreSQL's upserts wait for each other instead of deadlocking.
  return [...merged.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
}

const BATCH = 200;

type RollupTable = "result_rollups" | "engine_rollups" | "source_rollups" | "source_totals";

/** The upserts' statements, per table, dialect, columns and number of rows: built once, reused. */
const statements = new Map<string, string>();

function upsertStatement(
  table: RollupTable,
  columns: readonly string[],
  keys: readonly string[],
  sums: readonly string[],
  rows: number,
  pg: boolean,
): string {
  const id = `${table}|${pg}|${rows}|${columns.join(",")}`;
  let text = statements.get(id);
  if (text === undefined) {
    let n = 0;
    const tuple = () => `(${columns.map(() => (pg ? `$${++n}` : "?")).join(", ")})`;
    text =
      `insert into ${table} (${columns.join(", ")}) values ${Array.from({ length: rows }, tuple).join(", ")}` +
      ` on conflict (${keys.join(", ")}) do update set ` +
      sums.map((column) => `${column} = ${table}.${column} + excluded.${column}`).join(", ");
    if (statements.size > 1_000) statements.clear();
    statements.set(id, text);
  }
  return text;
}

/**
 * Upserts that add each row's counts to the stored row with the same key (or store it). Written
 * as SQL once per shape rather than through the query builder: run for every stored answer, the
 * builder's work was a third of the pipeline's CPU (issue 16). Table and column names are this
 * module's constants; every value is a parameter.
 */
async function addTo(
  db: Db,
  table: RollupTable,
  keys: readonly string[],
  sums: readonly string[],
  rows: Record<string, unknown>[],
): Promise<void> {
  const merged = merge(rows, (row) => keys.map((k) => row[k]).join("|"), sums);
  const first = merged[0];
  if (first === undefined) return;
  const columns = Object.keys(first);
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  for (let i = 0; i < merged.length; i += BATCH) {
    const slice = merged.slice(i, i + BATCH);
    const parameters: unknown[] = [];
    for (const row of slice) for (const column of columns) parameters.push(row[column] ?? null);
    await db.executeQuery(CompiledQuery.raw(upsertStatement(table, columns, keys, sums, slice.length, pg), parameters));
  }
}

const RESULT_KEYS = ["project_id", "grain", "start", "engine", "prompt_key", "subject"] as const;
const ENGINE_KEYS = ["project_id", "day", "engine", "subject"] as const;
const SOURCE_KEYS = ["project_id", "grain", "start", "engine", "url_key"] as const;
const SOURCE_SUMS = ["citations", "answers"] as const;
const TOTAL_KEYS = ["project_id", "grain", "start", "url_key"] as const;

/**
 * Adds answers to the rollups: upserts that add to what is there. Runs in the caller's transaction
 * (the one storing the answers), so that counts and answers can never disagree.
 */
export async function countAnswers(db: Db, answers: CountedAnswer[]): Promise<void> {
  await addTo(db, "result_rollups", RESULT_KEYS, COUNT_COLUMNS, answers.flatMap(resultIncrements));
  await addTo(db, "engine_rollups", ENGINE_KEYS, COUNT_COLUMNS, answers.flatMap(engineIncrements));
  await addTo(db, "source_rollups", SOURCE_KEYS, SOURCE_SUMS, answers.flatMap(sourceIncrements));
  await addTo(db, "source_totals", TOTAL_KEYS, SOURCE_SUMS, answers.flatMap(sourceTotalIncrements));
}

function negated<T extends Record<string, unknown>>(rows: T[], sums: readonly string[]): T[] {
  return rows.map((row) => {
    const out: Record<string, unknown> = { ...row };
    for (const column of sums) out[column] = -Number(row[column]);
    return out as T;
  });
}

/** Deletes the rows among `rows`' keys that count no answer any more, as if never counted. */
async function dropEmptied(db: Db, table: RollupTable, keys: readonly string[], rows: Record<string, unknown>[]) {
  const into = table as "result_rollups";
  type Column = keyof ResultRollupsTable;
  const seen = new Set<string>();
  for (const row of rows) {
    const id = keys.map((k) => row[k]).join("|");
    if (seen.has(id)) continue;
    seen.add(id);
    let query = db.deleteFrom(into).where("answers", "<=", 0);
    for (const key of keys) query = query.where(key as Column, "=", row[key] as string);
    await query.execute();
  }
}

/**
 * Replaces answers' counts: subtracts what `before` counted and adds what `after` counts (the same
 * answers, measured again), in one upsert per row, in the caller's transaction (the one rewriting the
 * answers). Rows left counting no answer (a competitor no longer tracked, a URL no longer read) are
 * deleted, so that the rollups are what counting the answers afresh would give.
 */
export async function recountAnswers(db: Db, before: CountedAnswer[], after: CountedAnswer[]): Promise<void> {
  type Increments = (answer: CountedAnswer) => Record<string, unknown>[];
  const tables: { table: RollupTable; keys: readonly string[]; sums: readonly string[]; rows: Increments }[] = [
    { table: "result_rollups", keys: RESULT_KEYS, sums: COUNT_COLUMNS, rows: resultIncrements },
    { table: "engine_rollups", keys: ENGINE_KEYS, sums: COUNT_COLUMNS, rows: engineIncrements },
    { table: "source_rollups", keys: SOURCE_KEYS, sums: SOURCE_SUMS, rows: sourceIncrements },
    { table: "source_totals", keys: TOTAL_KEYS, sums: SOURCE_SUMS, rows: sourceTotalIncrements },
  ];
  for (const { table, keys, sums, rows } of tables) {
    const removed = negated(before.flatMap(rows), sums);
    await addTo(db, table, keys, sums, [...removed, ...after.flatMap(rows)]);
    await dropEmptied(db, table, keys, removed);
  }
}
