import { type Kysely, PostgresAdapter, sql } from "kysely";

// Frozen: this file must never change once released; later changes are new migrations.
// Branding (issue 24): how a workspace presents what it sends to its clients (reports, their
// shared links, its e-mails). One row per workspace that set something; a workspace without one
// is signed with its own name and the default colours. Null columns fall back the same way, so
// that a rename of the workspace still shows where no name of its own was set.
// - logo: the image's bytes in base64 (a PNG or a JPEG of at most 200 kB, checked by the service),
//   with its media type; text on both dialects, as a data URL is what every renderer wants.
// - show_sightline: false removes "Sightline" from everything sent.
// The row goes with its workspace (ON DELETE CASCADE): nothing else refers to it.

// biome-ignore lint/suspicious/noExplicitAny: migrations run against whatever schema exists.
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable("workspace_branding")
    .addColumn("workspace_id", "text", (c) => c.primaryKey().references("workspaces.id").onDelete("cascade"))
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
}
