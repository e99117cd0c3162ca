import { type Kysely, PostgresAdapter, sql } from "kysely";

// Frozen: this file must never change once released; later changes are new migrations.
// The web searches an engine ran while answering (issue 14, query fan-out), as a JSON list of
// strings on each result. Answers stored before it read as having run none.

// biome-ignore lint/suspicious/noExplicitAny: migrations run against whatever schema exists.
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const json = pg ? sql`jsonb` : sql`text`;
  const empty = pg ? sql`'[]'::jsonb` : sql`'[]'`;
  await db.schema
    .alterTable("results")
    .addColumn("searches", json, (c) => c.notNull().defaultTo(empty))
    .execute();
}
