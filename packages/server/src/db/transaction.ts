import type { Db } from "./database.ts";

const commitHooks = new WeakMap<object, (() => void)[]>();

/**
 * Runs `fn` in a transaction, or in the caller's one if `db` is already a transaction, so that
 * a state change and the events it causes always commit together. Hooks registered with
 * `afterCommit` during the transaction run once it has committed (never if it rolls back).
 */
export async function withTransaction<T>(db: Db, fn: (trx: Db) => Promise<T>): Promise<T> {
  if (db.isTransaction) return fn(db);
  const hooks: (() => void)[] = [];
  const result = await db.transaction().execute((trx) => {
    commitHooks.set(trx, hooks);
    return fn(trx);
  });
  for (const hook of hooks) hook();
  return result;
}

/**
 * Runs `hook` once what `db` wrote is visible to others: after the commit of the transaction
 * started by withTransaction, or at once outside a transaction (the write already committed).
 */
export function afterCommit(db: Db, hook: () => void): void {
  const hooks = db.isTransaction ? commitHooks.get(db) : undefined;
  if (hooks === undefined) hook();
  else hooks.push(hook);
}
