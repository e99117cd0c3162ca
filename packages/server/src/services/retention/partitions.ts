import { sql } from "kysely";
import { monthOf } from "../../lib/months.ts";
import type { Deps } from "../context.ts";

/** Months of partitions kept ready ahead of now, so that no answer ever waits for one. */
const MONTHS_AHEAD = 3;
/** Rows copied per statement while `results` moves into its partitioned layout. */
const MOVE_BATCH = 10_000;

function partitioned(deps: Deps): boolean {
  return deps.sql.partitionsResults;
}

/**
 * Creates the month partitions of `results` from this month to three ahead, where missing (the
 * workers' hourly maintenance). @returns the months created.
 */
export async function ensureResultPartitions(deps: Deps): Promise<string[]> {
  if (!partitioned(deps)) return [];
  const now = deps.clock.now();
  const created: string[] = [];
  for (let offset = 0; offset <= MONTHS_AHEAD; offset++) {
    const month = monthOf(now, offset);
    const { rows } = await sql<{ created: boolean }>`SELECT sightline_results_partition(${month}) AS created`.execute(
      deps.db,
    );
    if (rows[0]?.created === true) created.push(month);
  }
  return created;
}

export interface MoveProgress {
  /** Rows copied by this call. */
  copied: number;
  /** Whether the move is over (the partitioned table is now `results`), by this call or before. */
  finished: boolean;
}

/**
 * Moves a populated `results` into its partitioned layout while Sightline runs: copies batches in
 * the order of their ids for up to `budgetMs` (the workers' clockwork, on every tick, until all is
 * copied; the mirror trigger keeps every change made meanwhile). With `finish` (`sightline
 * partitions finish`, once no process of the previous release runs: its writer names the old
 * table's unique key), copies what is left and swaps the tables in one short transaction.
 */
export async function moveResults(
  deps: Deps,
  options: { budgetMs?: number; finish?: boolean } = {},
): Promise<MoveProgress> {
  const budgetMs = options.budgetMs ?? 10_000;
  if (!partitioned(deps)) return { copied: 0, finished: true };
  const pending = await sql<{ pending: boolean }>`SELECT EXISTS (
      SELECT FROM storage_moves WHERE name = 'results' AND finished_at IS NULL) AS pending`.execute(deps.db);
  if (pending.rows[0]?.pending !== true) return { copied: 0, finished: true };
  const deadline = performance.now() + budgetMs;
  let copied = 0;
  for (;;) {
    const { rows } = await sql<{ n: number }>`SELECT sightline_results_copy_batch(${MOVE_BATCH}) AS n`.execute(deps.db);
    const n = Number(rows[0]?.n ?? 0);
    copied += n;
    if (n === 0) break;
    if (performance.now() >= deadline) return { copied, finished: false };
  }
  if (options.finish !== true) return { copied, finished: false };
  const { rows } = await sql<{ done: boolean }>`SELECT sightline_results_finish_move() AS done`.execute(deps.db);
  if (rows[0]?.done === true) deps.logger.info({ copied }, "answers moved into monthly partitions");
  return { copied, finished: true };
}

/**
 * Drops the answers of analyses started more than `months` months before this one, a whole
 * partition at a time (detached, then dropped: no row-by-row delete, nothing for vacuum). The
 * rollups keep their counts. @returns the months dropped.
 */
export async function dropResultMonths(deps: Deps, months: number): Promise<string[]> {
  if (!partitioned(deps)) return [];
  const oldest = monthOf(deps.clock.now(), -months);
  const { rows } = await sql<{ name: string }>`
    SELECT c.relname AS name FROM pg_inherits i
    JOIN pg_class c ON c.oid = i.inhrelid
    WHERE i.inhparent = 'results'::regclass AND c.relname ~ '^results_[0-9]{4}_[0-9]{2}$'
    ORDER BY c.relname`.execute(deps.db);
  const dropped: string[] = [];
  for (const { name } of rows) {
    const month = name.slice("results_".length).replace("_", "-");
    if (month >= oldest) continue;
    await sql.raw(`ALTER TABLE results DETACH PARTITION ${name}`).execute(deps.db);
    await sql.raw(`DROP TABLE ${name}`).execute(deps.db);
    dropped.push(month);
  }
  // Their answers outside their month went with them.
  if (dropped.length > 0) await sql`DELETE FROM result_spills WHERE month < ${oldest}`.execute(deps.db);
  return dropped;
}

export type ResultsLayout =
  | { state: "single-table" }
  | { state: "partitioned"; partitions: string[] }
  | { state: "moving"; copied: number; startedAt: string };

/** Where the answers live now: one table (SQLite), monthly partitions, or on their way there. */
export async function resultsMove(deps: Deps): Promise<ResultsLayout> {
  if (!partitioned(deps)) return { state: "single-table" };
  const { rows } = await sql<{ copied: string; started_at: string; finished_at: string | null }>`
    SELECT copied::text, started_at::text, finished_at::text FROM storage_moves WHERE name = 'results'`.execute(
    deps.db,
  );
  const move = rows[0];
  if (move !== undefined && move.finished_at === null)
    return { state: "moving", copied: Number(move.copied), startedAt: move.started_at };
  const partitions = await sql<{ name: string }>`
    SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
    WHERE i.inhparent = 'results'::regclass ORDER BY c.relname`.execute(deps.db);
  return { state: "partitioned", partitions: partitions.rows.map((row) => row.name) };
}
