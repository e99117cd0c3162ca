import { type Kysely, PostgresAdapter, sql } from "kysely";

// Frozen: this file must never change once released; later changes are new migrations.
// Opportunities (issue 15): the brand's fact sheet (what answers are checked against), and each
// project's last computed list of opportunities with the moment it was computed, so that a read
// recomputes only after a newer analysis. Existing projects read as having no facts.

// biome-ignore lint/suspicious/noExplicitAny: migrations run against whatever schema exists.
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const json = pg ? sql`jsonb` : sql`text`;
  await db.schema
    .alterTable("projects")
    .addColumn("facts", json, (c) => c.notNull().defaultTo(pg ? sql`'{}'::jsonb` : sql`'{}'`))
    .execute();
  await db.schema
    .createTable("opportunity_sets")
    .addColumn("project_id", "text", (c) => c.primaryKey().references("projects.id"))
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id"))
    .addColumn("computed_at", "text", (c) => c.notNull())
    .addColumn("basis", "text", (c) => c.notNull())
    .addColumn("data", "text", (c) => c.notNull())
    .execute();
}
