import { type Kysely, PostgresAdapter, sql } from "kysely";

// Frozen: this file must never change once released; later changes are new migrations.
// How a project's names are matched (issue 13): phrases in which a tracked name does not count, and
// names matched only with their exact case. Existing projects read as having none of either.
// (Competitors' case-sensitive aliases live inside the `competitors` JSON; old entries lack them.)

// biome-ignore lint/suspicious/noExplicitAny: migrations run against whatever schema exists.
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const json = pg ? sql`jsonb` : sql`text`;
  const empty = pg ? sql`'[]'::jsonb` : sql`'[]'`;
  for (const column of ["case_sensitive_aliases", "exclusions"]) {
    await db.schema
      .alterTable("projects")
      .addColumn(column, json, (c) => c.notNull().defaultTo(empty))
      .execute();
  }
}
