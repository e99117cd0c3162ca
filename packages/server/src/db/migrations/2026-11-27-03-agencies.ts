import { type Kysely, PostgresAdapter, sql } from "kysely";

// Frozen: this file must never change once released; later changes are new migrations.
// Agencies (issue 28): an agency owns client workspaces and pitches.
// - agencies: its pooled monthly credits (`credits_per_month`) over its own billing month
//   (`billing_anchor`, which its clients' months follow), and the custom host its dashboard and
//   share links are reached on (`custom_host`, a host name with an optional port, unique).
// - agency_members: its staff, with a role at the agency (admin, strategist, viewer) that applies
//   to every client unless the client's own `members` row says otherwise.
// - agency_branding: name, logo and colours set once for every client (the columns of
//   workspace_branding); a client's own settings win field by field.
// - agency_credit_usage: the pool's counter per billing period, raised in the same transaction as
//   the client's own `credit_usage`, so a reservation counts in both or in neither.
// - workspaces.agency_id / agency_kind ('client' or 'pitch') / credit_cap (a client's monthly cap,
//   null for none): a workspace without an agency is as before.
// - pitches: a one-off analysis of a prospect in a workspace of kind 'pitch', until converted.

// biome-ignore lint/suspicious/noExplicitAny: migrations run against whatever schema exists.
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable("agencies")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("credits_per_month", "integer", (c) => c.notNull())
    .addColumn("billing_anchor", "text", (c) => c.notNull())
    .addColumn("custom_host", "text", (c) => c.unique())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("agency_members")
    .addColumn("agency_id", "text", (c) => c.notNull().references("agencies.id").onDelete("cascade"))
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("role", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("agency_members_pk", ["agency_id", "user_id"])
    .execute();
  await db.schema.createIndex("agency_members_user").on("agency_members").column("user_id").execute();
  await db.schema
    .createTable("agency_branding")
    .addColumn("agency_id", "text", (c) => c.primaryKey().references("agencies.id").onDelete("cascade"))
    .addColumn("name", "text")
    .addColumn("logo", "text")
    .addColumn("logo_mime", "text")
    .addColumn("primary_color", "text")
    .addColumn("accent_color", "text")
    .addColumn("show_sightline", pg ? sql`boolean` : sql`integer`, (c) =>
      c.notNull().defaultTo(pg ? sql`true` : sql`1`),
    )
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addColumn("updated_by", "text")
    .execute();
  await db.schema
    .createTable("agency_credit_usage")
    .addColumn("agency_id", "text", (c) => c.notNull().references("agencies.id").onDelete("cascade"))
    .addColumn("period_start", "text", (c) => c.notNull())
    .addColumn("used", "integer", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("agency_credit_usage_pk", ["agency_id", "period_start"])
    .execute();
  await db.schema
    .alterTable("workspaces")
    .addColumn("agency_id", "text", (c) => c.references("agencies.id"))
    .execute();
  await db.schema.alterTable("workspaces").addColumn("agency_kind", "text").execute();
  await db.schema.alterTable("workspaces").addColumn("credit_cap", "integer").execute();
  await db.schema.createIndex("workspaces_agency").on("workspaces").columns(["agency_id", "agency_kind"]).execute();
  await db.schema
    .createTable("pitches")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("agency_id", "text", (c) => c.notNull().references("agencies.id").onDelete("cascade"))
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id").onDelete("cascade"))
    .addColumn("website", "text", (c) => c.notNull())
    .addColumn("project_id", "text")
    .addColumn("analysis_id", "text")
    .addColumn("share_id", "text")
    .addColumn("created_by", "text")
    .addColumn("converted_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("pitches_agency").on("pitches").columns(["agency_id", "created_at"]).execute();
}
