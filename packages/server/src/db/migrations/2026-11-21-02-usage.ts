import { type Kysely, PostgresAdapter, sql } from "kysely";

// Frozen: this file must never change once released; later changes are new migrations.

// biome-ignore lint/suspicious/noExplicitAny: migrations run against whatever schema exists.
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const timestamp = pg ? sql`timestamptz` : sql`text`;
  const bigint = pg ? sql`bigint` : sql`integer`;

  // Request counts, per workspace, billing period and endpoint; added to in batches.
  await db.schema
    .createTable("usage_requests")
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id"))
    .addColumn("period_start", timestamp, (c) => c.notNull())
    .addColumn("endpoint", "text", (c) => c.notNull())
    .addColumn("count", bigint, (c) => c.notNull())
    .addPrimaryKeyConstraint("usage_requests_pk", ["workspace_id", "period_start", "endpoint"])
    .execute();

  // Credits used (reserved or spent) per workspace and billing period: the row a reservation
  // increments conditionally, so that concurrent reservations cannot pass the allowance.
  await db.schema
    .createTable("credit_usage")
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id"))
    .addColumn("period_start", timestamp, (c) => c.notNull())
    .addColumn("used", bigint, (c) => c.notNull())
    .addColumn("updated_at", timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint("credit_usage_pk", ["workspace_id", "period_start"])
    .execute();

  // Every reservation and release, by engine: the audit trail and the per-engine breakdown.
  await db.schema
    .createTable("credit_entries")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id"))
    .addColumn("period_start", timestamp, (c) => c.notNull())
    .addColumn("engine", "text", (c) => c.notNull())
    .addColumn("credits", bigint, (c) => c.notNull())
    .addColumn("reference", "text", (c) => c.notNull())
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("credit_entries_period")
    .on("credit_entries")
    .columns(["workspace_id", "period_start", "engine"])
    .execute();
  await db.schema
    .createIndex("credit_entries_reference")
    .on("credit_entries")
    .columns(["workspace_id", "reference"])
    .execute();
}
