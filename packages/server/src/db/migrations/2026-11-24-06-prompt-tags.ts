import { type Kysely, PostgresAdapter, sql } from "kysely";

// Frozen: this file must never change once released; later changes are new migrations.
// Prompts organised (issue 14, item 6): tags per prompt, prompts switched off, and the brand's
// category (what it sells, as a buyer would say it) that prompt suggestions start from.
// Existing projects read as having no tags, no paused prompts and no category.

// biome-ignore lint/suspicious/noExplicitAny: migrations run against whatever schema exists.
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const json = pg ? sql`jsonb` : sql`text`;
  await db.schema
    .alterTable("projects")
    .addColumn("prompt_tags", json, (c) => c.notNull().defaultTo(pg ? sql`'{}'::jsonb` : sql`'{}'`))
    .execute();
  await db.schema
    .alterTable("projects")
    .addColumn("paused_prompts", json, (c) => c.notNull().defaultTo(pg ? sql`'[]'::jsonb` : sql`'[]'`))
    .execute();
  await db.schema.alterTable("projects").addColumn("category", "text").execute();
}
