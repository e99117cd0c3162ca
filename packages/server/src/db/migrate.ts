import { sql } from "kysely";
import type { Database } from "./database.ts";
import { MIGRATIONS, type Migration } from "./migrations/index.ts";

/** Arbitrary constant naming Sightline's migration lock among PostgreSQL advisory locks. */
const PG_MIGRATION_LOCK = 7_241_905_113;

/**
 * Applies pending migrations in one transaction. Safe when several processes start at once:
 * PostgreSQL serialises them on an advisory lock, SQLite on BEGIN IMMEDIATE's write lock, and
 * whoever comes second finds nothing left to do. DDL is transactional on both, so a failing
 * migration leaves the schema as it was.
 *
 * @returns the names of the migrations this call applied.
 */
export async function migrateToLatest(database: Database, migrations: Migration[] = MIGRATIONS): Promise<string[]> {
  return database.db.transaction().execute(async (trx) => {
    if (database.dialect === "postgres") {
      await sql`select pg_advisory_xact_lock(${PG_MIGRATION_LOCK})`.execute(trx);
    }
    await trx.schema
      .createTable("schema_migrations")
      .ifNotExists()
      .addColumn("name", "text", (c) => c.primaryKey())
      .addColumn("applied_at", "text", (c) => c.notNull())
      .execute();
    const rows = await trx.selectFrom("schema_migrations").select("name").execute();
    const applied = new Set(rows.map((row) => row.name));
    const known = new Set(migrations.map((m) => m.name));
    const unknown = [...applied].filter((name) => !known.has(name));
    if (unknown.length > 0) {
      throw new Error(
        `The database has migrations this version of Sightline does not know (${unknown.join(", ")}); ` +
          "it was migrated by a newer version. Upgrade Sightline instead of downgrading.",
      );
    }
    const done: string[] = [];
    for (const migration of migrations) {
      if (applied.has(migration.name)) continue;
      await migration.up(trx);
      await trx
        .insertInto("schema_migrations")
        .values({ name: migration.name, applied_at: new Date().toISOString() })
        .execute();
      done.push(migration.name);
    }
    return done;
  });
}
