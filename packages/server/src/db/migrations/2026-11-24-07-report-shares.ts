import type { Kysely } from "kysely";

// Frozen: this file must never change once released; later changes are new migrations.
// Shared report links (issue 15): a link opens one report's page without an account until it
// expires or is revoked. The link's token is signed with the server's secret key; the row is what
// makes it revocable and expiring.

// biome-ignore lint/suspicious/noExplicitAny: migrations run against whatever schema exists.
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable("report_shares")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id"))
    .addColumn("report_id", "text", (c) => c.notNull().references("reports.id"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("revoked_at", "text")
    .execute();
  await db.schema
    .createIndex("report_shares_report")
    .on("report_shares")
    .columns(["workspace_id", "report_id", "created_at"])
    .execute();
}
