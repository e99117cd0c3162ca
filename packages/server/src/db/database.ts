import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import {
  Kysely,
  PostgresDialect,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type Transaction,
} from "kysely";
import pg from "pg";
import type { DatabaseConfig } from "../config/database-url.ts";
import { SqliteDriver } from "./sqlite-driver.ts";
import type { Tables } from "./tables.ts";

export type Dialect = "sqlite" | "postgres";

/** A Kysely handle, or a transaction on one: services accept either. */
export type Db = Kysely<Tables> | Transaction<Tables>;

export interface Database {
  readonly db: Kysely<Tables>;
  readonly dialect: Dialect;
  /**
   * Changes whenever anything may have been committed to the database since it was last called:
   * by another connection (SQLite's `data_version`) or through this one (its writes, counted by
   * the driver). Null where the database cannot say without a query (PostgreSQL).
   */
  readonly changeStamp: (() => string) | null;
  close(): Promise<void>;
}

/**
 * Opens either dialect. Everything dialect-specific about the drivers lives here and in the
 * migrations' column types; the rest of the code base sees identical rows on both.
 */
export function openDatabase(config: DatabaseConfig & { poolSize?: number }): Database {
  if (config.dialect === "sqlite") return openSqlite(config.path);
  return openPostgres(config.url, config.poolSize ?? 10);
}

function openSqlite(path: string): Database {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const sqlite = new BetterSqlite3(path);
  sqlite.pragma("journal_mode = WAL");
  // Other processes (worker, CLI) share the file: wait for their write lock instead of failing.
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma("synchronous = NORMAL");
  sqlite.pragma("foreign_keys = ON");
  const writes = { count: 0 };
  const dataVersion = sqlite.prepare("pragma data_version").pluck();
  const db = new Kysely<Tables>({
    dialect: {
      createAdapter: () => new SqliteAdapter(),
      createDriver: () => new SqliteDriver(sqlite, writes),
      createIntrospector: (kysely) => new SqliteIntrospector(kysely),
      createQueryCompiler: () => new SqliteQueryCompiler(),
    },
  });
  return {
    db,
    dialect: "sqlite",
    changeStamp: () => `${dataVersion.get() as number}:${writes.count}`,
    close: () => db.destroy(),
  };
}

const PG_INT8 = 20;
const PG_NUMERIC = 1700;
const PG_DATE = 1082;
const PG_TIMESTAMP = 1114;
const PG_TIMESTAMPTZ = 1184;
const PG_JSON = 114;
const PG_JSONB = 3802;

const parseTimestamp = pg.types.getTypeParser(PG_TIMESTAMPTZ);

/** Row values normalised to what SQLite returns, per connection (never the global pg.types). */
function postgresTypeParser(oid: number, format?: string): (value: string) => unknown {
  switch (oid) {
    case PG_INT8:
    case PG_NUMERIC:
      return Number;
    case PG_TIMESTAMP:
    case PG_TIMESTAMPTZ:
      return (value) => (parseTimestamp(value) as Date).toISOString();
    case PG_DATE:
    case PG_JSON:
    case PG_JSONB:
      return (value) => value;
    default:
      return pg.types.getTypeParser(oid, format as "text");
  }
}

function openPostgres(url: string, poolSize: number): Database {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    // A database that does not answer (down, unreachable) fails the request after this instead
    // of holding it; the API answers 503 with Retry-After.
    connectionTimeoutMillis: 5_000,
    // A new connection plans its first queries cold (the first page of monthly-partitioned answers:
    // about 14 ms, against 1 ms warm): idle ones are kept a minute, not pg's 10 s, so that a
    // quiet moment does not cost the next request a new one.
    idleTimeoutMillis: 60_000,
    types: { getTypeParser: postgresTypeParser as typeof pg.types.getTypeParser },
  });
  // A client losing its connection must not crash the process: an idle one is replaced by the
  // pool; one checked out (inside a transaction) fails its next query, which reports the error.
  pool.on("error", () => {});
  pool.on("connect", (client) => client.on("error", () => {}));
  const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) });
  return { db, dialect: "postgres", changeStamp: null, close: () => db.destroy() };
}
