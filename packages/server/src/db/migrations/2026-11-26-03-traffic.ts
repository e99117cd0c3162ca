import type { Kysely } from "kysely";

// Frozen: this file must never change once released; later changes are new migrations.
// Traffic (issue 26): what a brand's own access logs say about AI bots and AI referrals, kept as
// daily counts only. Privacy by construction: no row holds an address or a user agent.
// - traffic_imports: one row per imported batch (a file, an upload, a drain's push), with the
//   SHA-256 of its decompressed bytes: the same batch twice is recognised and counted once.
// - traffic_bot_hits: hits per day, host, page, bot, verification and status served, with the
//   last hit's time.
// - traffic_referrals: visits an AI engine referred, per day, host, page and engine.
// All three go with their project (ON DELETE CASCADE) and carry its workspace for scoping.

// biome-ignore lint/suspicious/noExplicitAny: migrations run against whatever schema exists.
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable("traffic_imports")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
    .addColumn("project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("digest", "text", (c) => c.notNull())
    .addColumn("source", "text", (c) => c.notNull())
    .addColumn("format", "text", (c) => c.notNull())
    .addColumn("lines", "integer", (c) => c.notNull())
    .addColumn("bot_hits", "integer", (c) => c.notNull())
    .addColumn("referrals", "integer", (c) => c.notNull())
    .addColumn("ignored", "integer", (c) => c.notNull())
    .addColumn("rejected", "integer", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addUniqueConstraint("traffic_imports_digest", ["project_id", "digest"])
    .execute();
  await db.schema
    .createTable("traffic_bot_hits")
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
    .addColumn("project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("day", "text", (c) => c.notNull())
    .addColumn("host", "text", (c) => c.notNull())
    .addColumn("path", "text", (c) => c.notNull())
    .addColumn("bot", "text", (c) => c.notNull())
    .addColumn("verification", "text", (c) => c.notNull())
    .addColumn("status", "integer", (c) => c.notNull())
    .addColumn("hits", "integer", (c) => c.notNull())
    .addColumn("last_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("traffic_bot_hits_pk", [
      "project_id",
      "day",
      "host",
      "path",
      "bot",
      "verification",
      "status",
    ])
    .execute();
  await db.schema
    .createTable("traffic_referrals")
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
    .addColumn("project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("day", "text", (c) => c.notNull())
    .addColumn("host", "text", (c) => c.notNull())
    .addColumn("path", "text", (c) => c.notNull())
    .addColumn("engine", "text", (c) => c.notNull())
    .addColumn("visits", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("traffic_referrals_pk", ["project_id", "day", "host", "path", "engine"])
    .execute();
}
