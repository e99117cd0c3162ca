import { type Kysely, PostgresAdapter, sql } from "kysely";

// Frozen: this file must never change once released; later changes are new migrations.
// The first day (issue 23):
// - workspace_engines: engines a workspace connects itself in Settings → Engines: a key for a
//   built-in engine (encrypted like webhook secrets, only its last four characters readable), or
//   an OpenAI-compatible endpoint of its own (`custom`: its base URL and model), with the outcome
//   of the last connection test.
// - projects.deleted_at / deleted_by: a deleted brand, restorable for 30 days, then purged.
// - alerts.acknowledged_at / acknowledged_by: an alert a member has worked through.
// - monitoring_runs.failures: how many of a finished run's answers failed out of how many, and why
//   (each engine's error, as its analysis stores them), so that a run "completed with failures" is
//   shown as such. Null for runs finished before.

// biome-ignore lint/suspicious/noExplicitAny: migrations run against whatever schema exists.
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable("workspace_engines")
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("custom", pg ? sql`boolean` : sql`integer`, (c) => c.notNull().defaultTo(pg ? sql`false` : sql`0`))
    .addColumn("title", "text")
    .addColumn("api_key", "text")
    .addColumn("key_hint", "text")
    .addColumn("model", "text")
    .addColumn("base_url", "text")
    // untested, ready or failing: the last connection test's outcome.
    .addColumn("status", "text", (c) => c.notNull().defaultTo("untested"))
    .addColumn("last_error", "text")
    .addColumn("tested_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("workspace_engines_pk", ["workspace_id", "name"])
    .execute();
  await db.schema.alterTable("projects").addColumn("deleted_at", "text").execute();
  await db.schema.alterTable("projects").addColumn("deleted_by", "text").execute();
  await db.schema.alterTable("alerts").addColumn("acknowledged_at", "text").execute();
  await db.schema.alterTable("alerts").addColumn("acknowledged_by", "text").execute();
  await db.schema.alterTable("monitoring_runs").addColumn("failures", "text").execute();
  // Deleted brands are looked for by the purge only; live ones by workspace, as before.
  await sql`CREATE INDEX projects_deleted ON projects (deleted_at) WHERE deleted_at IS NOT NULL`.execute(db);
}
