import { type Kysely, PostgresAdapter, sql } from "kysely";

// Frozen: this file must never change once released; later changes are new migrations.
// Experiments (issue 27): a change the brand made (pages rewritten, an outside placement), with the
// prompts it should move (treated) and those it should not (controls). Its effect is computed from
// the stored answers on every read, over fixed windows around `changed_at`; once the answers after
// the change are enough, `result_at` freezes the period read, so a finished result never moves.
// - prompts, control_prompts, pages, engines: JSON arrays.
// - effect: the size (a share, 0.1 = 10 points) the sample plan is made for.
// - schedule_id: the monitoring schedule that collects the extra samples, when one was scheduled;
//   it is switched off when the result is ready. Not a foreign key: deleting the schedule leaves
//   the change, which then reads only what was answered.
// - opportunity_id: the opportunity it answers ("I did this"), as the opportunity's stable id.

// biome-ignore lint/suspicious/noExplicitAny: migrations run against whatever schema exists.
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable("changes")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
    .addColumn("project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("changed_at", "text", (c) => c.notNull())
    .addColumn("pages", "text", (c) => c.notNull())
    .addColumn("placement_url", "text")
    .addColumn("prompts", "text", (c) => c.notNull())
    .addColumn("control_prompts", "text", (c) => c.notNull())
    .addColumn("prompts_proposed", pg ? sql`boolean` : sql`integer`, (c) => c.notNull())
    .addColumn("engines", "text", (c) => c.notNull())
    .addColumn("effect", pg ? sql`double precision` : sql`real`, (c) => c.notNull())
    .addColumn("opportunity_id", "text")
    .addColumn("schedule_id", "text")
    .addColumn("result_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("changes_project")
    .on("changes")
    .columns(["workspace_id", "project_id", "created_at"])
    .execute();
}
