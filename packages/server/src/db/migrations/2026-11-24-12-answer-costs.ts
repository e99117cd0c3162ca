import { type Kysely, PostgresAdapter } from "kysely";

// Frozen: this file must never change once released; later changes are new migrations.
// The cost of every answer (issue 16, ADR 0029):
// - results: the answer's usage as its vendor reported it (input and output tokens, billable
//   searches) and its cost in micro-USD. Null for failed answers and for answers stored before.
// - cost_usage: per workspace, billing period and engine, the answers' usage and cost summed,
//   added when each analysis finishes: what usage shows per engine and per month.
// - monitoring_runs.cost: the run's analysis's cost, kept when the run completes.

// biome-ignore lint/suspicious/noExplicitAny: migrations run against whatever schema exists.
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const count = pg ? "bigint" : "integer";
  await db.schema.alterTable("results").addColumn("input_tokens", "integer").execute();
  await db.schema.alterTable("results").addColumn("output_tokens", "integer").execute();
  await db.schema.alterTable("results").addColumn("search_calls", "integer").execute();
  await db.schema.alterTable("results").addColumn("cost_micros", count).execute();
  await db.schema
    .createTable("cost_usage")
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id"))
    .addColumn("period_start", "text", (c) => c.notNull())
    .addColumn("engine", "text", (c) => c.notNull())
    .addColumn("answers", count, (c) => c.notNull())
    .addColumn("input_tokens", count, (c) => c.notNull())
    .addColumn("output_tokens", count, (c) => c.notNull())
    .addColumn("search_calls", count, (c) => c.notNull())
    .addColumn("cost_micros", count, (c) => c.notNull())
    .addPrimaryKeyConstraint("cost_usage_pk", ["workspace_id", "period_start", "engine"])
    .execute();
  await db.schema.alterTable("monitoring_runs").addColumn("cost", "text").execute();
}
