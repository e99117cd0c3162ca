import { type Kysely, PostgresAdapter, sql } from "kysely";

// Frozen: this file must never change once released; later changes are new migrations.
// Alert channels (issue 15): an alert rule may also e-mail and post to Slack, and members may ask
// for a weekly e-mail digest of a brand. Each message to send is a `notifications` row, written
// with its job in the transaction that records the alert (or queues the digest), so that a crash
// loses none; `dedupe_key` makes queueing a digest twice impossible. The channels themselves live
// in the alert rules' JSON (the Slack URL encrypted), so existing rules read as webhooks only.

// biome-ignore lint/suspicious/noExplicitAny: migrations run against whatever schema exists.
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const timestamp = pg ? sql`timestamptz` : sql`text`;

  await db.schema
    .createTable("notifications")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("subject_id", "text", (c) => c.notNull())
    .addColumn("channel", "text", (c) => c.notNull())
    .addColumn("recipient", "text", (c) => c.notNull())
    .addColumn("user_id", "text")
    .addColumn("dedupe_key", "text", (c) => c.notNull().unique())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("attempt_count", "integer", (c) => c.notNull())
    .addColumn("last_error", "text")
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addColumn("updated_at", timestamp, (c) => c.notNull())
    .addColumn("sent_at", timestamp)
    .execute();
  await db.schema
    .createIndex("notifications_subject")
    .on("notifications")
    .columns(["workspace_id", "subject_id"])
    .execute();

  await db.schema
    .createTable("digest_subscriptions")
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
    .addColumn("project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint("digest_subscriptions_pk", ["project_id", "user_id"])
    .execute();
  await db.schema
    .createIndex("digest_subscriptions_workspace")
    .on("digest_subscriptions")
    .columns(["workspace_id", "user_id"])
    .execute();
}
