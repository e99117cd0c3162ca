import { type Kysely, PostgresAdapter, sql } from "kysely";

// Frozen: this file must never change once released; later changes are new migrations.

// biome-ignore lint/suspicious/noExplicitAny: migrations run against whatever schema exists.
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const timestamp = pg ? sql`timestamptz` : sql`text`;
  const json = pg ? sql`jsonb` : sql`text`;
  const bool = pg ? sql`boolean` : sql`integer`;
  const real = pg ? sql`double precision` : sql`real`;

  await db.schema
    .createTable("analyses")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id"))
    .addColumn("project_id", "text", (c) => c.notNull().references("projects.id"))
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("trigger", "text", (c) => c.notNull())
    .addColumn("schedule_id", "text")
    .addColumn("engines", json, (c) => c.notNull())
    .addColumn("prompts", json, (c) => c.notNull())
    .addColumn("samples", "integer", (c) => c.notNull())
    .addColumn("country", "text")
    .addColumn("language", "text")
    .addColumn("total_answers", "integer", (c) => c.notNull())
    .addColumn("credits_reserved", "integer", (c) => c.notNull())
    .addColumn("credits_released", "integer", (c) => c.notNull())
    .addColumn("errors", json, (c) => c.notNull())
    .addColumn("summary", json)
    .addColumn("score_version", "text", (c) => c.notNull())
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addColumn("started_at", timestamp)
    .addColumn("completed_at", timestamp)
    .addColumn("updated_at", timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("analyses_workspace_created")
    .on("analyses")
    .columns(["workspace_id", "created_at", "id"])
    .execute();
  await db.schema
    .createIndex("analyses_project_created")
    .on("analyses")
    .columns(["workspace_id", "project_id", "created_at", "id"])
    .execute();

  // One row per answer (prompt × engine × sample). Counts are stored, not only ratios, so that any
  // aggregate can be recomputed exactly.
  await db.schema
    .createTable("results")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id"))
    .addColumn("project_id", "text", (c) => c.notNull())
    .addColumn("analysis_id", "text", (c) => c.notNull().references("analyses.id"))
    .addColumn("engine", "text", (c) => c.notNull())
    .addColumn("model", "text")
    .addColumn("prompt", "text", (c) => c.notNull())
    .addColumn("prompt_index", "integer", (c) => c.notNull())
    .addColumn("sample", "integer", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("error", json)
    .addColumn("text", "text")
    .addColumn("measure", json)
    .addColumn("mentioned", bool, (c) => c.notNull())
    .addColumn("position", "integer")
    .addColumn("sentiment", real)
    .addColumn("brand_cited", bool, (c) => c.notNull())
    .addColumn("citation_count", "integer", (c) => c.notNull())
    .addColumn("brand_citation_count", "integer", (c) => c.notNull())
    .addColumn("score", real)
    .addColumn("score_version", "text", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull())
    .addColumn("latency_ms", "integer", (c) => c.notNull())
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addUniqueConstraint("results_one_per_answer", ["analysis_id", "prompt_index", "engine", "sample"])
    .execute();
  await db.schema
    .createIndex("results_workspace_created")
    .on("results")
    .columns(["workspace_id", "created_at", "id"])
    .execute();
  await db.schema
    .createIndex("results_project_created")
    .on("results")
    .columns(["workspace_id", "project_id", "created_at", "id"])
    .execute();
  await db.schema.createIndex("results_analysis").on("results").columns(["analysis_id"]).execute();
}
