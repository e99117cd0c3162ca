import { type Kysely, PostgresAdapter, sql } from "kysely";

// Frozen: this file must never change once released; later changes are new migrations.
// The answers stored outside their partition's month (PostgreSQL; issue 30).
// - An answer's partition is the month its analysis started in (results.month), but the list reads
//   answers newest first by created_at: an analysis that ends after its month ended stores answers
//   of a later month in an earlier month's partition. To read one month's answers without planning
//   every partition, the list must know which partitions hold such answers, and from when to when.
// - result_spills: per month, the oldest and newest created_at of its partition's answers that lie
//   outside that month (later, or earlier from a clock behind the analysis's). No row: none.
// - Kept by a statement trigger on the partitioned table, fed its inserted rows: every writer is
//   covered (the answer writer, the move's copy and its mirror) and a batch costs one scan of its
//   own rows. Filled from the answers already stored.
// - SQLite keeps one table and needs none of it.
// expand: a new table and trigger; the previous release writes as before and the trigger records
// its answers too.

// biome-ignore lint/suspicious/noExplicitAny: migrations run against whatever schema exists.
type AnyDb = Kysely<any>;

const OUTSIDE_MONTH = `created_at < to_date(month, 'YYYY-MM')::timestamp AT TIME ZONE 'UTC'
  OR created_at >= (to_date(month, 'YYYY-MM') + interval '1 month')::timestamp AT TIME ZONE 'UTC'`;

export async function up(db: AnyDb): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`CREATE TABLE result_spills (
    month text COLLATE "C" PRIMARY KEY,
    oldest_at timestamptz NOT NULL,
    newest_at timestamptz NOT NULL
  )`.execute(db);
  // In the order of the months, so that two writers never wait on each other's rows crosswise.
  await sql
    .raw(`CREATE FUNCTION sightline_result_spills() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO result_spills (month, oldest_at, newest_at)
          SELECT month, min(created_at), max(created_at) FROM added
          WHERE ${OUTSIDE_MONTH}
          GROUP BY month ORDER BY month
        ON CONFLICT (month) DO UPDATE SET
          oldest_at = least(result_spills.oldest_at, excluded.oldest_at),
          newest_at = greatest(result_spills.newest_at, excluded.newest_at);
        RETURN NULL;
      END $$`)
    .execute(db);
  // The partitioned table: results once swapped, results_partitioned while a move is under way (the
  // trigger follows it through the swap's rename).
  const target = (
    await sql<{ name: string }>`SELECT c.relname AS name FROM pg_class c
      WHERE c.relname IN ('results', 'results_partitioned') AND c.relkind = 'p'
        AND c.relnamespace = current_schema()::regnamespace`.execute(db)
  ).rows[0]?.name;
  if (target === undefined) return;
  await sql
    .raw(`CREATE TRIGGER results_spills AFTER INSERT ON ${target}
      REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION sightline_result_spills()`)
    .execute(db);
  await sql
    .raw(`INSERT INTO result_spills (month, oldest_at, newest_at)
      SELECT month, min(created_at), max(created_at) FROM ${target}
      WHERE ${OUTSIDE_MONTH}
      GROUP BY month`)
    .execute(db);
}
