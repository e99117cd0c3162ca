import { type Kysely, PostgresAdapter, sql } from "kysely";

// Frozen: this file must never change once released; later changes are new migrations.
// What the judge engine said about an answer (issue 13), so that measuring the same answer again
// (a re-measure, an identical answer) never asks, nor charges, twice. Keyed per workspace by a hash
// of the answer's text, its prompt, the names asked about and the judge prompt's version.

// biome-ignore lint/suspicious/noExplicitAny: migrations run against whatever schema exists.
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const timestamp = pg ? sql`timestamptz` : sql`text`;
  const json = pg ? sql`jsonb` : sql`text`;
  const real = pg ? sql`double precision` : sql`real`;
  await db.schema
    .createTable("judge_verdicts")
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id"))
    .addColumn("key", "text", (c) => c.notNull())
    .addColumn("meant", json, (c) => c.notNull())
    .addColumn("tone", real)
    .addColumn("engine", "text", (c) => c.notNull())
    .addColumn("prompt_version", "text", (c) => c.notNull())
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint("judge_verdicts_pk", ["workspace_id", "key"])
    .execute();
}
