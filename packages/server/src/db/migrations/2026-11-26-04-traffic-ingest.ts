import type { Kysely } from "kysely";

// Frozen: this file must never change once released; later changes are new migrations.
// Traffic, continued (issue 26):
// - traffic_ingest_tokens: per-brand tokens a log drain or CDN push authenticates with on
//   POST /v1/projects/:id/traffic/logs. Not API keys: each opens that one endpoint for one brand.
//   Stored as SHA-256 hashes with a short visible start; revoked, never deleted, so a revoked
//   token is refused with when it was revoked.
// - traffic_access_checks: the access audit of each brand domain (robots.txt read per AI bot,
//   llms.txt), the latest check only, re-done daily; `verdicts` is JSON.

// biome-ignore lint/suspicious/noExplicitAny: migrations run against whatever schema exists.
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable("traffic_ingest_tokens")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
    .addColumn("project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("start", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("revoked_at", "text")
    .addColumn("last_used_at", "text")
    .execute();
  await db.schema
    .createIndex("traffic_ingest_tokens_project")
    .on("traffic_ingest_tokens")
    .columns(["project_id", "created_at"])
    .execute();
  await db.schema
    .createTable("traffic_access_checks")
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
    .addColumn("project_id", "text", (c) => c.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("domain", "text", (c) => c.notNull())
    .addColumn("checked_at", "text", (c) => c.notNull())
    .addColumn("robots_status", "integer")
    .addColumn("llms_status", "integer")
    .addColumn("verdicts", "text", (c) => c.notNull())
    .addColumn("error", "text")
    .addPrimaryKeyConstraint("traffic_access_checks_pk", ["project_id", "domain"])
    .execute();
}
