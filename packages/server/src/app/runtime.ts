import type { DatabaseConfig } from "../config/database-url.ts";
import { type Database, openDatabase } from "../db/database.ts";
import { migrateToLatest } from "../db/migrate.ts";
import { type Clock, systemClock } from "../lib/clock.ts";
import type { Logger } from "../lib/logger.ts";
import { ApiKeyCache } from "../services/api-keys/cache.ts";
import { LastUsedRecorder } from "../services/api-keys/last-used.ts";
import type { Deps } from "../services/context.ts";
import { DEFAULT_PLANS, type PlanCatalog } from "../services/plans/catalog.ts";

const LAST_USED_FLUSH_MS = 5_000;

/** One process's long-lived parts: the database and what every service shares. */
export interface Runtime {
  database: Database;
  deps: Deps;
  close(): Promise<void>;
}

export interface RuntimeOptions {
  clock?: Clock;
  plans?: PlanCatalog;
  /** Apply pending migrations on open (every process does; it is idempotent and locked). */
  migrate?: boolean;
}

export async function createRuntime(
  config: { database: DatabaseConfig & { poolSize?: number } },
  logger: Logger,
  options: RuntimeOptions = {},
): Promise<Runtime> {
  const database = openDatabase(config.database);
  try {
    if (options.migrate !== false) {
      const applied = await migrateToLatest(database);
      if (applied.length > 0) logger.info({ migrations: applied }, "database migrated");
    }
  } catch (error) {
    await database.close();
    throw error;
  }
  const clock = options.clock ?? systemClock;
  const deps: Deps = {
    db: database.db,
    dialect: database.dialect,
    clock,
    logger,
    plans: options.plans ?? DEFAULT_PLANS,
    keyCache: new ApiKeyCache(clock),
    lastUsed: new LastUsedRecorder(),
  };
  const flush = async () => {
    try {
      await deps.lastUsed.flush(database.db);
    } catch (error) {
      logger.warn({ err: error }, "could not record API keys' last use; will retry");
    }
  };
  const timer = setInterval(flush, LAST_USED_FLUSH_MS);
  timer.unref();
  let closed = false;
  return {
    database,
    deps,
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(timer);
      await flush();
      await database.close();
    },
  };
}
