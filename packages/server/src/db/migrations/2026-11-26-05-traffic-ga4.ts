import type { Kysely } from "kysely";

// Frozen: this file must never change once released; later changes are new migrations.
// Traffic, continued (issue 26): GA4 as a second source of AI referrals, for brands without raw logs.
// - traffic_ga4_connections: one per brand, the GA4 property and the service account that reads
//   it. `credentials` is the account's key (client_email, private_key, private_key_id, token_uri)
//   as JSON encrypted with the server's secret key (SecretBox, as webhook secrets and engine keys);
//   `client_email` is kept in clear as its hint. `api_url` is the Data API's address (Google's
//   unless the server said otherwise when connecting). `next_sync_at` is when the worker's daily
//   sync is due; claiming it moves it a day on.
// GA4's daily counts go into traffic_referrals under the host "(ga4)", which no log line can have
// (a log's host is one of the brand's domains, or ""), so the two sources never share a row.

// biome-ignore lint/suspicious/noExplicitAny: migrations run against whatever schema exists.
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable("traffic_ga4_connections")
    .addColumn("project_id", "text", (c) => c.primaryKey().references("projects.id").onDelete("cascade"))
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
    .addColumn("property_id", "text", (c) => c.notNull())
    .addColumn("client_email", "text", (c) => c.notNull())
    .addColumn("credentials", "text", (c) => c.notNull())
    .addColumn("api_url", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addColumn("last_synced_at", "text")
    .addColumn("last_error", "text")
    .addColumn("next_sync_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("traffic_ga4_connections_due")
    .on("traffic_ga4_connections")
    .columns(["next_sync_at"])
    .execute();
}
