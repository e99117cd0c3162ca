import { sql } from "kysely";
import type { Db, Dialect } from "./database.ts";

/** A select that can lock its rows (Kysely's SelectQueryBuilder). */
interface Lockable<Q> {
  forUpdate(): Q;
}

/**
 * What the two dialects do differently beyond the SQL Kysely writes: row locks, cross-process
 * wake-ups and lock waits. Services call these and never ask which dialect runs.
 */
export interface DialectSql {
  /**
   * Locks the selected rows until the transaction ends, so that concurrent writers of the same
   * rows take turns (PostgreSQL `FOR UPDATE`; SQLite's `BEGIN IMMEDIATE` already serialises writers).
   */
  lockRows<Q extends Lockable<Q>>(query: Q): Q;
  /** Locks the selected rows, skipping rows another transaction holds (claiming jobs). */
  lockRowsSkipLocked<Q extends Lockable<Q> & { skipLocked(): Q }>(query: Q): Q;
  /**
   * Tells other processes that something happened on `channel`, when the transaction commits
   * (PostgreSQL `NOTIFY`). SQLite has no such thing: other processes poll.
   */
  notify(db: Db, channel: string): Promise<void>;
  /** Bounds how long the current transaction waits for a lock and for each statement. */
  boundWaits(db: Db, limits: { lockMs: number; statementMs: number }): Promise<void>;
  /**
   * Whether `results` lives in monthly partitions (PostgreSQL, migration 2026-11-28-01), kept by
   * the workers' maintenance; SQLite keeps one table.
   */
  readonly partitionsResults: boolean;
}

const postgres: DialectSql = {
  lockRows: (query) => query.forUpdate(),
  lockRowsSkipLocked: (query) => query.forUpdate().skipLocked(),
  async notify(db, channel) {
    await sql`select pg_notify(${channel}, '')`.execute(db);
  },
  async boundWaits(db, { lockMs, statementMs }) {
    // `set local` takes no parameters; the values are integers we chose.
    await sql.raw(`set local lock_timeout = ${Math.round(lockMs)}`).execute(db);
    await sql.raw(`set local statement_timeout = ${Math.round(statementMs)}`).execute(db);
  },
  partitionsResults: true,
};

const sqlite: DialectSql = {
  lockRows: (query) => query,
  lockRowsSkipLocked: (query) => query,
  async notify() {},
  // One writer at a time, waiting at most busy_timeout (5 s) for the lock; statements are local.
  async boundWaits() {},
  partitionsResults: false,
};

export function dialectSql(dialect: Dialect): DialectSql {
  return dialect === "postgres" ? postgres : sqlite;
}
