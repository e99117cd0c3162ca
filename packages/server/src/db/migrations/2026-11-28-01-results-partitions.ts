import { type Kysely, PostgresAdapter, sql } from "kysely";

// Frozen: this file must never change once released; later changes are new migrations.
// Answers partitioned by month on PostgreSQL (issue 30, docs/storage-at-scale.md).
// - results.month: the month ('YYYY-MM', UTC) the answer's analysis started, written by the writer.
//   The same for every attempt at one answer, so that the partitioned table's unique index
//   (analysis_id, prompt_index, engine, sample, month) still refuses an answer written twice.
// - PostgreSQL: results_partitioned, PARTITION BY RANGE (month), one partition per month (created
//   ahead by the workers' maintenance, sightline_results_partition) and a default one; the indexes of
//   results on every partition; primary key (id, month).
//   - A new installation (no analysis yet) is swapped for it at once.
//   - A populated one is moved while Sightline runs: a trigger mirrors every change to results into
//     results_partitioned, the workers copy the existing rows in batches in the order of their ids
//     (sightline_results_copy_batch, progress in storage_moves). The swap, one short transaction
//     (sightline_results_finish_move: the last rows, the names, the views that read results and the
//     BI policy recreated on the new table, the old one dropped), is the operator's
//     (`sightline partitions finish`), once no process of the previous release runs.
// contract: the swap renames and drops the unpartitioned results, whose unique key the previous
// release's writer names (ON CONFLICT (analysis_id, prompt_index, engine, sample)); it runs only on
// a new installation or when the operator finishes the move after that release has stopped.
// - SQLite keeps one table; the column exists so that the writer is the same on both.
// Columns added to results while a move is under way are not carried by the trigger or the copy:
// a migration that adds one finishes the move first (SELECT sightline_results_finish_move()).

// biome-ignore lint/suspicious/noExplicitAny: migrations run against whatever schema exists.
type AnyDb = Kysely<any>;

function quote(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

export async function up(db: AnyDb): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) {
    await db.schema.alterTable("results").addColumn("month", "text").execute();
    return;
  }
  // Compared byte by byte whatever the database's collation, as partition bounds are.
  await sql`ALTER TABLE results ADD COLUMN month text COLLATE "C"`.execute(db);

  await sql`CREATE TABLE storage_moves (
    name text PRIMARY KEY,
    cursor text NOT NULL,
    copied bigint NOT NULL,
    started_at timestamptz NOT NULL,
    finished_at timestamptz
  )`.execute(db);

  await sql
    .raw(`CREATE FUNCTION sightline_analysis_month(analysis text) RETURNS text LANGUAGE sql STABLE AS $$
      SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM') FROM analyses WHERE id = analysis
    $$`)
    .execute(db);

  // A month's partition, created when missing: FROM ('2026-11') TO ('2026-12').
  await sql
    .raw(`CREATE FUNCTION sightline_results_partition(month text) RETURNS boolean LANGUAGE plpgsql AS $$
      DECLARE
        parent text := CASE WHEN to_regclass('results_partitioned') IS NOT NULL THEN 'results_partitioned' ELSE 'results' END;
        name text := 'results_' || replace(month, '-', '_');
      BEGIN
        IF month !~ '^[0-9]{4}-[0-9]{2}$' THEN RAISE EXCEPTION 'not a month: %', month; END IF;
        IF to_regclass(name) IS NOT NULL THEN RETURN false; END IF;
        EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (%L) TO (%L)', name, parent, month,
          to_char(to_date(month, 'YYYY-MM') + interval '1 month', 'YYYY-MM'));
        RETURN true;
      END $$`)
    .execute(db);

  await sql`CREATE TABLE results_partitioned (LIKE results INCLUDING DEFAULTS) PARTITION BY RANGE (month)`.execute(db);
  await sql`ALTER TABLE results_partitioned ALTER COLUMN month SET DEFAULT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM')`.execute(
    db,
  );
  await sql`ALTER TABLE results_partitioned ADD CONSTRAINT results_p_pkey PRIMARY KEY (id, month)`.execute(db);
  await sql`ALTER TABLE results_partitioned ADD CONSTRAINT results_p_one_per_answer
    UNIQUE (analysis_id, prompt_index, engine, sample, month)`.execute(db);
  await sql`ALTER TABLE results_partitioned ADD CONSTRAINT results_p_analysis_fkey
    FOREIGN KEY (analysis_id) REFERENCES analyses (id)`.execute(db);
  await sql`ALTER TABLE results_partitioned ADD CONSTRAINT results_p_workspace_fkey
    FOREIGN KEY (workspace_id) REFERENCES workspaces (id)`.execute(db);
  await sql`CREATE INDEX results_p_workspace_created ON results_partitioned (workspace_id, created_at, id)`.execute(db);
  await sql`CREATE INDEX results_p_project_created ON results_partitioned (workspace_id, project_id, created_at, id)`.execute(
    db,
  );
  await sql`CREATE INDEX results_p_engine_created ON results_partitioned (workspace_id, engine, created_at, id)`.execute(
    db,
  );
  await sql`CREATE INDEX results_p_analysis ON results_partitioned (analysis_id)`.execute(db);
  await sql`CREATE INDEX results_p_conversation ON results_partitioned (conversation_id, turn)
    WHERE conversation_id IS NOT NULL`.execute(db);
  await sql`CREATE TABLE results_default PARTITION OF results_partitioned DEFAULT`.execute(db);
  // Every month an analysis started in, and three ahead.
  await sql
    .raw(`SELECT sightline_results_partition(to_char(m, 'YYYY-MM'))
      FROM generate_series(
        date_trunc('month', least(coalesce((SELECT min(created_at) FROM analyses), now()), now()) AT TIME ZONE 'UTC'),
        date_trunc('month', now() AT TIME ZONE 'UTC') + interval '3 months',
        interval '1 month') AS m`)
    .execute(db);

  // Copying and mirroring name every column of results as it is now.
  const columns = (
    await sql<{ column_name: string }>`SELECT column_name FROM information_schema.columns
      WHERE table_schema = current_schema() AND table_name = 'results' AND column_name <> 'month'
      ORDER BY ordinal_position`.execute(db)
  ).rows.map((row) => quote(row.column_name));
  const list = columns.join(", ");
  const from = (alias: string) => columns.map((column) => `${alias}.${column}`).join(", ");

  await sql
    .raw(`CREATE FUNCTION sightline_results_mirror() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'DELETE' OR TG_OP = 'UPDATE' THEN
          DELETE FROM results_partitioned WHERE id = OLD.id;
        END IF;
        IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
        INSERT INTO results_partitioned (${list}, month)
          VALUES (${from("NEW")}, coalesce(NEW.month, sightline_analysis_month(NEW.analysis_id),
            to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM')));
        RETURN NEW;
      END $$`)
    .execute(db);

  await sql
    .raw(`CREATE FUNCTION sightline_results_copy_batch(size integer) RETURNS integer LANGUAGE plpgsql AS $$
      DECLARE
        done text;
        n integer;
        last text;
      BEGIN
        SELECT cursor INTO done FROM storage_moves WHERE name = 'results' AND finished_at IS NULL FOR UPDATE;
        IF NOT FOUND THEN RETURN 0; END IF;
        WITH chunk AS (SELECT * FROM results WHERE id > done ORDER BY id LIMIT size),
        written AS (
          INSERT INTO results_partitioned (${list}, month)
          SELECT ${from("c")}, coalesce(c.month, a.month, to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM'))
          FROM chunk c
          LEFT JOIN LATERAL (SELECT sightline_analysis_month(c.analysis_id) AS month) a ON true
          ON CONFLICT DO NOTHING
        )
        SELECT count(*), max(id) INTO n, last FROM chunk;
        IF n > 0 THEN
          UPDATE storage_moves SET cursor = last, copied = storage_moves.copied + n WHERE name = 'results';
        END IF;
        RETURN n;
      END $$`)
    .execute(db);

  await sql
    .raw(`CREATE FUNCTION sightline_results_finish_move() RETURNS boolean LANGUAGE plpgsql AS $$
      DECLARE
        view record;
        views text[] := '{}';
        definitions text[] := '{}';
        policy text;
        i integer;
      BEGIN
        IF to_regclass('results_partitioned') IS NULL THEN RETURN false; END IF;
        LOCK TABLE results IN ACCESS EXCLUSIVE MODE;
        LOOP
          EXIT WHEN sightline_results_copy_batch(50000) = 0;
        END LOOP;
        -- The views that read results, as their text names it (so that they read the new table).
        FOR view IN
          SELECT DISTINCT c.oid::regclass::text AS name, pg_get_viewdef(c.oid) AS definition
          FROM pg_depend d
          JOIN pg_rewrite r ON r.oid = d.objid
          JOIN pg_class c ON c.oid = r.ev_class
          WHERE d.refobjid = 'results'::regclass AND c.relkind = 'v' AND c.oid <> 'results'::regclass
        LOOP
          views := views || view.name;
          definitions := definitions || view.definition;
        END LOOP;
        SELECT pg_get_expr(p.polqual, p.polrelid) INTO policy
          FROM pg_policy p WHERE p.polrelid = 'results'::regclass AND p.polname = 'bi_workspace';
        DROP TRIGGER IF EXISTS sightline_results_mirror ON results;
        ALTER TABLE results RENAME TO results_unpartitioned;
        ALTER TABLE results_partitioned RENAME TO results;
        FOR i IN 1 .. coalesce(array_length(views, 1), 0) LOOP
          EXECUTE format('CREATE OR REPLACE VIEW %s AS %s', views[i], definitions[i]);
        END LOOP;
        IF policy IS NOT NULL THEN
          EXECUTE 'GRANT SELECT ON results TO sightline_bi_views';
          EXECUTE 'ALTER TABLE results ENABLE ROW LEVEL SECURITY';
          EXECUTE format('CREATE POLICY bi_workspace ON results AS PERMISSIVE FOR SELECT TO sightline_bi_views USING (%s)', policy);
        END IF;
        DROP TABLE results_unpartitioned;
        UPDATE storage_moves SET finished_at = now() WHERE name = 'results';
        RETURN true;
      END $$`)
    .execute(db);

  await sql`INSERT INTO storage_moves (name, cursor, copied, started_at) VALUES ('results', '', 0, now())`.execute(db);
  // A new installation has no analysis; any other may have processes of the previous release running.
  const populated = await sql<{ any: boolean }>`SELECT EXISTS (SELECT FROM analyses) AS any`.execute(db);
  if (populated.rows[0]?.any === true) {
    await sql`CREATE TRIGGER sightline_results_mirror AFTER INSERT OR UPDATE OR DELETE ON results
      FOR EACH ROW EXECUTE FUNCTION sightline_results_mirror()`.execute(db);
  } else {
    await sql`SELECT sightline_results_finish_move()`.execute(db);
  }
}
