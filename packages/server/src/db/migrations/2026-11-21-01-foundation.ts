import { type Kysely, PostgresAdapter, sql } from "kysely";

// Frozen: this file must never change once released; later changes are new migrations.
// It imports nothing from the application on purpose.

// biome-ignore lint/suspicious/noExplicitAny: migrations run against whatever schema exists.
type AnyDb = Kysely<any>;

function types(db: AnyDb) {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  return {
    timestamp: pg ? sql`timestamptz` : sql`text`,
    date: pg ? sql`date` : sql`text`,
    json: pg ? sql`jsonb` : sql`text`,
    serial: pg ? sql`bigint generated always as identity primary key` : sql`integer primary key autoincrement`,
  };
}

export async function up(db: AnyDb): Promise<void> {
  const t = types(db);

  await db.schema
    .createTable("workspaces")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("plan", "text", (c) => c.notNull())
    .addColumn("billing_anchor", t.date, (c) => c.notNull())
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .addColumn("updated_at", t.timestamp, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("api_keys")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("key_hash", "text", (c) => c.notNull().unique())
    .addColumn("start", "text", (c) => c.notNull())
    .addColumn("scopes", t.json, (c) => c.notNull())
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .addColumn("expires_at", t.timestamp, (c) => c.notNull())
    .addColumn("revoked_at", t.timestamp)
    .addColumn("last_used_at", t.timestamp)
    .execute();
  await db.schema
    .createIndex("api_keys_workspace_created")
    .on("api_keys")
    .columns(["workspace_id", "created_at", "id"])
    .execute();

  await db.schema
    .createTable("projects")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("primary_domain", "text", (c) => c.notNull())
    .addColumn("other_domains", t.json, (c) => c.notNull())
    .addColumn("aliases", t.json, (c) => c.notNull())
    .addColumn("competitors", t.json, (c) => c.notNull())
    .addColumn("prompts", t.json, (c) => c.notNull())
    .addColumn("engines", t.json, (c) => c.notNull())
    .addColumn("country", "text")
    .addColumn("language", "text")
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .addColumn("updated_at", t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("projects_workspace_created")
    .on("projects")
    .columns(["workspace_id", "created_at", "id"])
    .execute();

  await db.schema
    .createTable("events")
    .addColumn("seq", t.serial)
    .addColumn("id", "text", (c) => c.notNull().unique())
    .addColumn("workspace_id", "text", (c) => c.notNull().references("workspaces.id"))
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("data", t.json, (c) => c.notNull())
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("events_workspace_created")
    .on("events")
    .columns(["workspace_id", "created_at", "id"])
    .execute();
}
