import { type Kysely, PostgresAdapter, sql } from "kysely";

// Frozen: this file must never change once released; later changes are new migrations.
// Citation categories (issue 14): a project's own categories for cited domains, applied before the
// built-in list. Existing projects read as having none.

// biome-ignore lint/suspicious/noExplicitAny: migrations run against whatever schema exists.
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .alterTable("projects")
    .addColumn("citation_categories", pg ? sql`jsonb` : sql`text`, (c) =>
      c.notNull().defaultTo(pg ? sql`'[]'::jsonb` : sql`'[]'`),
    )
    .execute();
}
