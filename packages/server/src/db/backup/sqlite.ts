import { chmodSync, copyFileSync, mkdirSync, renameSync, rmSync, statSync } from "node:fs";
import { dirname } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { type BackupContents, COUNTED_TABLES, type CountedTable } from "./contents.ts";

/** Pages per backup step: all of them (better-sqlite3 caps the step at this). */
const EVERY_PAGE = 0x7fffffff;

/**
 * Copies a live database to `to` through SQLite's online backup, from a read-only connection of its
 * own. Every page is copied in one step, under one read transaction: a consistent snapshot that
 * writers in WAL mode do not wait for. In small steps, each write the server commits between two
 * steps would restart the copy, which under a steady load might never finish.
 */
export async function backupSqlite(path: string, to: string): Promise<BackupContents> {
  mkdirSync(dirname(to), { recursive: true });
  let source: BetterSqlite3.Database;
  try {
    source = new BetterSqlite3(path, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw new Error(`cannot open ${path}: ${(error as Error).message}`);
  }
  try {
    source.pragma("busy_timeout = 5000");
    await source.backup(to, { progress: () => EVERY_PAGE });
  } finally {
    source.close();
  }
  // The database holds password hashes and encrypted secrets: only its owner reads a copy.
  chmodSync(to, 0o600);
  const copy = new BetterSqlite3(to, { fileMustExist: true });
  try {
    // One self-contained file (the copy inherits WAL mode, which would add -wal and -shm files beside it).
    copy.pragma("journal_mode = DELETE");
    checkIntegrity(copy, to);
    return {
      rows: Object.fromEntries(
        COUNTED_TABLES.map((table) => [table, copy.prepare(`select count(*) from ${table}`).pluck().get() as number]),
      ) as Record<CountedTable, number>,
      migrations: migrationsOf(copy, to),
    };
  } finally {
    copy.close();
  }
}

/** Checks a backup file before it is restored; answers the migrations it holds. */
export function inspectSqliteBackup(from: string): string[] {
  let backup: BetterSqlite3.Database;
  try {
    backup = new BetterSqlite3(from, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw new Error(`cannot open ${from} as a SQLite database: ${(error as Error).message}`);
  }
  try {
    checkIntegrity(backup, from);
    return migrationsOf(backup, from);
  } finally {
    backup.close();
  }
}

/**
 * Puts the backup in place of the database file. The old database's -wal and -shm files go first:
 * left beside the new file, SQLite would replay the old database's pages into it.
 */
export function restoreSqlite(path: string, from: string, options: { force: boolean }): void {
  if (path === ":memory:") throw new Error("DATABASE_URL is sqlite::memory:, which cannot be restored into");
  const size = sizeOf(path);
  if (size !== null && size > 0 && !options.force) {
    throw new Error(`${path} already holds a database: stop Sightline and add --force to replace it`);
  }
  mkdirSync(dirname(path), { recursive: true });
  const partial = `${path}.restoring`;
  copyFileSync(from, partial);
  try {
    for (const suffix of ["-wal", "-shm", "-journal"]) rmSync(`${path}${suffix}`, { force: true });
    renameSync(partial, path);
  } finally {
    rmSync(partial, { force: true });
  }
}

function checkIntegrity(db: BetterSqlite3.Database, path: string): void {
  const result = db.pragma("integrity_check", { simple: true });
  if (result !== "ok") throw new Error(`${path} fails SQLite's integrity check: ${String(result)}`);
}

function migrationsOf(db: BetterSqlite3.Database, path: string): string[] {
  const table = db.prepare("select 1 from sqlite_master where type = 'table' and name = 'schema_migrations'").get();
  if (table === undefined) throw new Error(`${path} is not a Sightline database (it has no schema_migrations table)`);
  return db.prepare("select name from schema_migrations order by name").pluck().all() as string[];
}

function sizeOf(path: string): number | null {
  try {
    return statSync(path).size;
  } catch {
    return null;
  }
}
