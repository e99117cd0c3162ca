import { type Kysely, PostgresAdapter, sql } from "kysely";

// Frozen: this file must never change once released; later changes are new migrations.
// Reads at scale (issue 16):
// - source_totals: the source rollups summed over engines (per URL, per day and per week). The
//   sources of all engines, the usual question, read a range of this table instead of every
//   engine's rows (at 1,000,000 answers and 7 engines: 236 ms p95 on SQLite against a 200 ms goal).
//   Filled here from the source rollups; written with them from now on.
// - results_engine_created: `GET /v1/results?engine=` reads a range of its own at any cursor depth,
//   however rare the engine, instead of filtering the workspace's range.

// biome-ignore lint/suspicious/noExplicitAny: migrations run against whatever schema exists.
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const count = pg ? sql`bigint` : sql`integer`;
  await db.schema
    .createTable("source_totals")
    .addColumn("project_id", "text", (c) => c.notNull().references("projects.id"))
    .addColumn("grain", "text", (c) => c.notNull())
    .addColumn("start", "text", (c) => c.notNull())
    .addColumn("url_key", "text", (c) => c.notNull())
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id"))
    .addColumn("url", "text", (c) => c.notNull())
    .addColumn("domain", "text", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("competitor", "text")
    .addColumn("citations", count, (c) => c.notNull())
    .addColumn("answers", count, (c) => c.notNull())
    .addPrimaryKeyConstraint("source_totals_pk", ["project_id", "grain", "start", "url_key"])
    .execute();
  await sql`
    insert into source_totals
      (project_id, grain, start, url_key, workspace_id, url, domain, kind, competitor, citations, answers)
    select project_id, grain, start, url_key, min(workspace_id), min(url), min(domain), min(kind), min(competitor),
           sum(citations), sum(answers)
    from source_rollups
    group by project_id, grain, start, url_key`.execute(db);

  await db.schema
    .createIndex("results_engine_created")
    .on("results")
    .columns(["workspace_id", "engine", "created_at", "id"])
    .execute();
}
