import type { Db } from "./database.ts";

/**
 * Runs `fn` in a transaction, or in the caller's one if `db` is already a transaction, so that
 * a state change and the events it causes always commit together.
 */
export async function withTransaction<T>(db: Db, fn: (trx: Db) => Promise<T>): Promise<T> {
  if (db.isTransaction) return fn(db);
  return db.transaction().execute((trx) => fn(trx));
}
