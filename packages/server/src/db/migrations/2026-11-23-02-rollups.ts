import { type Kysely, PostgresAdapter, sql } from "kysely";

// Frozen: this file must never change once released; later changes are new migrations.
// Counts of measured answers and of cited sources, from which every analytics figure is computed;
// kept in the transaction that stores each answer. Answers stored before this migration are counted
// by a job it queues (`rollups.rebuild`). Three shapes, so that a query over any period reads a few
// thousand rows whatever the number of answers:
// - result_rollups: per prompt, engine and brand (`subject` "" the project's own, else a competitor),
//   for each day and for each week (Monday to Monday, `grain` "week"); a period is read as its whole
//   weeks and the days around them.
// - engine_rollups: the same summed over prompts, per day: time series and leaderboards.
// - source_rollups: per cited URL and engine, per day and per week.

// biome-ignore lint/suspicious/noExplicitAny: migrations run against whatever schema exists.
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const real = pg ? sql`double precision` : sql`real`;
  const count = pg ? sql`bigint` : sql`integer`;

  await db.schema
    .createTable("result_rollups")
    .addColumn("project_id", "text", (c) => c.notNull().references("projects.id"))
    .addColumn("grain", "text", (c) => c.notNull())
    .addColumn("start", "text", (c) => c.notNull())
    .addColumn("engine", "text", (c) => c.notNull())
    .addColumn("prompt_key", "text", (c) => c.notNull())
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id"))
    .addColumn("prompt", "text", (c) => c.notNull())
    .addColumn("answers", count, (c) => c.notNull())
    .addColumn("mentioned", count, (c) => c.notNull())
    .addColumn("cited", count, (c) => c.notNull())
    .addColumn("with_citations", count, (c) => c.notNull())
    .addColumn("position_sum", count, (c) => c.notNull())
    .addColumn("position_count", count, (c) => c.notNull())
    .addColumn("sentiment_sum", real, (c) => c.notNull())
    .addColumn("sentiment_count", count, (c) => c.notNull())
    .addColumn("citations", count, (c) => c.notNull())
    .addColumn("brand_citations", count, (c) => c.notNull())
    .addColumn("score_sum", real, (c) => c.notNull())
    .addPrimaryKeyConstraint("result_rollups_pk", ["project_id", "grain", "start", "engine", "prompt_key", "subject"])
    .execute();
  // One prompt's rows (the `prompt` filter) without reading every prompt's.
  await db.schema
    .createIndex("result_rollups_prompt")
    .on("result_rollups")
    .columns(["project_id", "prompt_key", "grain", "start"])
    .execute();

  await db.schema
    .createTable("engine_rollups")
    .addColumn("project_id", "text", (c) => c.notNull().references("projects.id"))
    .addColumn("day", "text", (c) => c.notNull())
    .addColumn("engine", "text", (c) => c.notNull())
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id"))
    .addColumn("answers", count, (c) => c.notNull())
    .addColumn("mentioned", count, (c) => c.notNull())
    .addColumn("cited", count, (c) => c.notNull())
    .addColumn("with_citations", count, (c) => c.notNull())
    .addColumn("position_sum", count, (c) => c.notNull())
    .addColumn("position_count", count, (c) => c.notNull())
    .addColumn("sentiment_sum", real, (c) => c.notNull())
    .addColumn("sentiment_count", count, (c) => c.notNull())
    .addColumn("citations", count, (c) => c.notNull())
    .addColumn("brand_citations", count, (c) => c.notNull())
    .addColumn("score_sum", real, (c) => c.notNull())
    .addPrimaryKeyConstraint("engine_rollups_pk", ["project_id", "day", "engine", "subject"])
    .execute();

  await db.schema
    .createTable("source_rollups")
    .addColumn("project_id", "text", (c) => c.notNull().references("projects.id"))
    .addColumn("grain", "text", (c) => c.notNull())
    .addColumn("start", "text", (c) => c.notNull())
    .addColumn("engine", "text", (c) => c.notNull())
    .addColumn("url_key", "text", (c) => c.notNull())
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id"))
    .addColumn("url", "text", (c) => c.notNull())
    .addColumn("domain", "text", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("competitor", "text")
    .addColumn("citations", count, (c) => c.notNull())
    .addColumn("answers", count, (c) => c.notNull())
    .addPrimaryKeyConstraint("source_rollups_pk", ["project_id", "grain", "start", "engine", "url_key"])
    .execute();

  // Whether an answer is counted in the rollups: the rebuild job counts those that are not, and marks
  // them in the same transaction; new answers are stored counted.
  await db.schema
    .alterTable("results")
    .addColumn("rolled_up", pg ? sql`boolean` : sql`integer`, (c) => c.notNull().defaultTo(pg ? sql`false` : sql`0`))
    .execute();

  const any = await db.selectFrom("results").select("id").limit(1).executeTakeFirst();
  if (any !== undefined) {
    const now = new Date().toISOString();
    await db
      .insertInto("jobs")
      .values({
        id: `job_rollups_${Date.now().toString(36)}`,
        kind: "rollups.rebuild",
        payload: "{}",
        status: "pending",
        run_at: now,
        attempts: 0,
        max_attempts: 5,
        locked_by: null,
        locked_until: null,
        last_error: null,
        created_at: now,
        updated_at: now,
        finished_at: null,
      })
      .execute();
  }
}
