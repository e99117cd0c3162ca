import { realpathSync, renameSync, rmSync, statSync } from "node:fs";
import { resolve } from "node:path";
import type { DatabaseConfig } from "../../config/database-url.ts";
import { type Dialect, openDatabase } from "../database.ts";
import { migrateToLatest } from "../migrate.ts";
import { MIGRATIONS } from "../migrations/index.ts";
import type { CountedTable } from "./contents.ts";
import { backupPostgres, inspectPostgresBackup, restorePostgres } from "./postgres.ts";
import { backupSqlite, inspectSqliteBackup, restoreSqlite } from "./sqlite.ts";

export interface BackupSummary {
  dialect: Dialect;
  database: string;
  path: string;
  bytes: number;
  seconds: number;
  /** Rows of COUNTED_TABLES as the backup holds them: one snapshot, whatever was written meanwhile. */
  rows: Record<CountedTable, number>;
  /** The newest migration in the backup: the version of Sightline's schema it holds. */
  schema: string | null;
}

export interface RestoreSummary {
  dialect: Dialect;
  database: string;
  from: string;
  bytes: number;
  seconds: number;
  schema: string | null;
  /** Migrations applied after the restore: those of Sightline versions newer than the backup. */
  migrated: string[];
  /** What the operator must still do. */
  notes: string[];
}

/** The database a command works on, in words, without a password. */
function describeDatabase(database: DatabaseConfig): string {
  if (database.dialect === "sqlite") return `sqlite:${database.path}`;
  const url = new URL(database.url);
  url.password = "";
  return url.toString();
}

/**
 * Writes a consistent copy of the database to `to` while Sightline keeps running: SQLite, a verified
 * database file; PostgreSQL, a pg_dump custom-format archive. The copy is written beside `to` and
 * renamed into place once verified, so that a failed backup never leaves a file that looks whole.
 */
export async function backupDatabase(
  database: DatabaseConfig,
  to: string,
  options: { force: boolean },
): Promise<BackupSummary> {
  if (database.dialect === "sqlite" && database.path === ":memory:") {
    throw new Error("DATABASE_URL is sqlite::memory:, which no other process can read: there is nothing to back up");
  }
  if (database.dialect === "sqlite" && sameFile(to, database.path)) {
    throw new Error(`${to} is the database itself: write the backup elsewhere`);
  }
  if (!options.force && exists(to)) throw new Error(`${to} already exists: choose another path, or add --force`);
  const started = performance.now();
  const partial = `${to}.partial`;
  rmSync(partial, { force: true });
  try {
    const contents =
      database.dialect === "sqlite"
        ? await backupSqlite(database.path, partial)
        : await backupPostgres(database.url, partial);
    renameSync(partial, to);
    return {
      dialect: database.dialect,
      database: describeDatabase(database),
      path: to,
      bytes: statSync(to).size,
      seconds: (performance.now() - started) / 1000,
      rows: contents.rows,
      schema: contents.migrations.at(-1) ?? null,
    };
  } finally {
    rmSync(partial, { force: true });
  }
}

/**
 * Replaces the database with a backup, then applies the migrations Sightline has gained since the
 * backup was made. Refuses a database that holds data unless `force`, and a backup made by a newer
 * Sightline (its schema would not be understood) before touching anything.
 */
export async function restoreDatabase(
  database: DatabaseConfig,
  from: string,
  options: { force: boolean },
): Promise<RestoreSummary> {
  if (!exists(from)) throw new Error(`${from}: no such file`);
  if (database.dialect === "sqlite" && sameFile(from, database.path)) {
    throw new Error(`${from} is DATABASE_URL's database itself: there is nothing to restore`);
  }
  const started = performance.now();
  const migrations = database.dialect === "sqlite" ? inspectSqliteBackup(from) : await inspectPostgresBackup(from);
  refuseUnknownMigrations(migrations);
  let restored = { rebuilt: [] as string[], notes: [] as string[] };
  if (database.dialect === "sqlite") restoreSqlite(database.path, from, options);
  else restored = await restorePostgres(database.url, from, options);
  const opened = openDatabase(database);
  let applied: string[];
  try {
    applied = await migrateToLatest(opened);
  } finally {
    await opened.close();
  }
  return {
    dialect: database.dialect,
    database: describeDatabase(database),
    from,
    bytes: statSync(from).size,
    seconds: (performance.now() - started) / 1000,
    schema: migrations.at(-1) ?? null,
    // Migrations the restore ran again to rebuild what the backup held are not newer ones.
    migrated: applied.filter((name) => !restored.rebuilt.includes(name)),
    notes: restored.notes,
  };
}

function refuseUnknownMigrations(applied: string[]): void {
  if (applied.length === 0) throw new Error("the backup holds no Sightline schema (no schema_migrations rows)");
  const known = new Set(MIGRATIONS.map((m) => m.name));
  const unknown = applied.filter((name) => !known.has(name));
  if (unknown.length > 0) {
    throw new Error(
      `the backup was made by a newer version of Sightline (migrations ${unknown.join(", ")}): restore it with that version or a later one`,
    );
  }
}

/** Whether two paths name one file (`-wal` and `-shm` included), existing or not. */
function sameFile(path: string, database: string): boolean {
  const real = (p: string) => {
    try {
      return realpathSync(p);
    } catch {
      return resolve(p);
    }
  };
  return [database, `${database}-wal`, `${database}-shm`].some((file) => real(file) === real(path));
}

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}
