import { type Kysely, PostgresAdapter, sql } from "kysely";

// Frozen: this file must never change once released; later changes are new migrations.
// Vendors' batch APIs (issue 16, ADR 0030):
// - monitoring_schedules.batch: the schedule's runs send their answers to the vendors' batch APIs
//   (OpenAI Batch, Anthropic Message Batches, Gemini batch mode) where an engine has one.
// - analyses.batch: the analysis was run so (a run of such a schedule).
// - engine_batches: one vendor batch per analysis and engine: its vendor id, how many requests it
//   holds, and whether its answers were collected.

// biome-ignore lint/suspicious/noExplicitAny: migrations run against whatever schema exists.
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const bool = pg ? sql`boolean` : sql`integer`;
  const no = pg ? sql`false` : sql`0`;
  await db.schema
    .alterTable("monitoring_schedules")
    .addColumn("batch", bool, (c) => c.notNull().defaultTo(no))
    .execute();
  await db.schema
    .alterTable("analyses")
    .addColumn("batch", bool, (c) => c.notNull().defaultTo(no))
    .execute();
  await db.schema
    .createTable("engine_batches")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id"))
    .addColumn("analysis_id", "text", (c) => c.notNull().references("analyses.id"))
    .addColumn("engine", "text", (c) => c.notNull())
    .addColumn("vendor_batch_id", "text", (c) => c.notNull())
    .addColumn("requests", "integer", (c) => c.notNull())
    // submitted, then collected (its answers stored).
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("collected_at", "text")
    .addUniqueConstraint("engine_batches_analysis_engine", ["analysis_id", "engine"])
    .execute();
}
