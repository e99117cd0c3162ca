import { type Kysely, PostgresAdapter, sql } from "kysely";

// Frozen: this file must never change once released; later changes are new migrations.
// Re-measuring a project's stored answers on request (issue 13). `cursor` is the id of the last
// answer re-measured: it advances in the transaction that rewrites a page of answers and corrects
// the rollups, so a crash or a retry resumes after it and never counts an answer twice. At most one
// queued or running re-measure per project (a partial unique index, on both dialects).

// biome-ignore lint/suspicious/noExplicitAny: migrations run against whatever schema exists.
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const timestamp = pg ? sql`timestamptz` : sql`text`;

  await db.schema
    .createTable("remeasures")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id"))
    .addColumn("project_id", "text", (c) => c.notNull().references("projects.id"))
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("range_from", timestamp)
    .addColumn("range_to", timestamp)
    .addColumn("total", "integer", (c) => c.notNull())
    .addColumn("done", "integer", (c) => c.notNull())
    .addColumn("changed", "integer", (c) => c.notNull())
    .addColumn("cursor", "text", (c) => c.notNull())
    .addColumn("score_version", "text", (c) => c.notNull())
    .addColumn("job_id", "text", (c) => c.notNull())
    .addColumn("error", "text")
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addColumn("started_at", timestamp)
    .addColumn("completed_at", timestamp)
    .addColumn("updated_at", timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("remeasures_project")
    .on("remeasures")
    .columns(["workspace_id", "project_id", "created_at", "id"])
    .execute();
  await db.schema
    .createIndex("remeasures_one_active")
    .on("remeasures")
    .column("project_id")
    .unique()
    .where(sql.ref("status"), "in", ["queued", "running"])
    .execute();
}
