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
    .createTable("monitoring_schedules")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id"))
    .addColumn("project_id", "text", (c) => c.notNull().references("projects.id"))
    .addColumn("engines", json)
    .addColumn("prompts", json)
    .addColumn("samples", "integer", (c) => c.notNull())
    .addColumn("schedule", json, (c) => c.notNull())
    .addColumn("cron", "text", (c) => c.notNull())
    .addColumn("timezone", "text", (c) => c.notNull())
    .addColumn("alert_rules", json, (c) => c.notNull())
    .addColumn("active", bool, (c) => c.notNull())
    .addColumn("next_run_at", timestamp)
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addColumn("updated_at", timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("monitoring_schedules_workspace")
    .on("monitoring_schedules")
    .columns(["workspace_id", "created_at", "id"])
    .execute();
  await db.schema
    .createIndex("monitoring_schedules_due")
    .on("monitoring_schedules")
    .columns(["active", "next_run_at"])
    .execute();

  // One row per run; `slot` is unique per schedule, so a slot runs once however many workers race for it.
  await db.schema
    .createTable("monitoring_runs")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id"))
    .addColumn("schedule_id", "text", (c) => c.notNull().references("monitoring_schedules.id").onDelete("cascade"))
    .addColumn("project_id", "text", (c) => c.notNull())
    .addColumn("slot", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("skip_reason", "text")
    .addColumn("analysis_id", "text")
    .addColumn("summary", json)
    .addColumn("change", json)
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addColumn("completed_at", timestamp)
    .addUniqueConstraint("monitoring_runs_slot", ["schedule_id", "slot"])
    .execute();
  await db.schema
    .createIndex("monitoring_runs_schedule")
    .on("monitoring_runs")
    .columns(["schedule_id", "created_at", "id"])
    .execute();

  await db.schema
    .createTable("alerts")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id"))
    .addColumn("project_id", "text", (c) => c.notNull())
    .addColumn("schedule_id", "text", (c) => c.notNull())
    .addColumn("run_id", "text", (c) => c.notNull())
    .addColumn("rule_id", "text", (c) => c.notNull())
    .addColumn("rule", json, (c) => c.notNull())
    .addColumn("engine", "text")
    .addColumn("observed", real)
    .addColumn("previous", real)
    .addColumn("message", "text", (c) => c.notNull())
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex("alerts_workspace").on("alerts").columns(["workspace_id", "created_at", "id"]).execute();

  // Whether a rule's condition currently holds, per scope (overall or one engine): an alert fires on
  // the transition into the condition, not again while it holds.
  await db.schema
    .createTable("alert_states")
    .addColumn("schedule_id", "text", (c) => c.notNull().references("monitoring_schedules.id").onDelete("cascade"))
    .addColumn("rule_id", "text", (c) => c.notNull())
    .addColumn("scope", "text", (c) => c.notNull())
    .addColumn("active", bool, (c) => c.notNull())
    .addColumn("updated_at", timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint("alert_states_pk", ["schedule_id", "rule_id", "scope"])
    .execute();

  await db.schema
    .createTable("reports")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id"))
    .addColumn("project_id", "text", (c) => c.notNull())
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("analysis_id", "text")
    .addColumn("run_id", "text")
    .addColumn("schedule_id", "text")
    .addColumn("period_start", timestamp, (c) => c.notNull())
    .addColumn("period_end", timestamp, (c) => c.notNull())
    .addColumn("dedupe_key", "text", (c) => c.notNull().unique())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("data", json, (c) => c.notNull())
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("reports_workspace")
    .on("reports")
    .columns(["workspace_id", "created_at", "id"])
    .execute();
}
