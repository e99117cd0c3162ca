import type BetterSqlite3 from "better-sqlite3";
import { CompiledQuery, type DatabaseConnection, type Driver, type QueryResult } from "kysely";
import { isBooleanColumn } from "./columns.ts";

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely driver for better-sqlite3 with two differences from the stock one:
 * - transactions start with BEGIN IMMEDIATE, so a transaction takes the write lock up front and
 *   waits (busy_timeout) for another process instead of failing with SQLITE_BUSY on upgrade;
 * - prepared statements are cached by SQL text, and rows are built by a per-statement function
 *   (see rowBuilder), which matters on the hot read paths.
 */
export class SqliteDriver implements Driver {
  readonly #database: BetterSqlite3.Database;
  readonly #mutex = new ConnectionMutex();
  readonly #connection: SqliteConnection;

  /** `writes.count` goes up with every statement that may write, committed or not. */
  constructor(database: BetterSqlite3.Database, writes: { count: number } = { count: 0 }) {
    this.#database = database;
    this.#connection = new SqliteConnection(database, writes);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    // One connection per process: the mutex makes callers take turns, and a transaction
    // keeps it for its whole duration.
    await this.#mutex.lock();
    return this.#connection;
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("begin immediate"));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("commit"));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("rollback"));
  }

  async releaseConnection(): Promise<void> {
    this.#mutex.unlock();
  }

  async destroy(): Promise<void> {
    this.#database.close();
  }
}

interface Prepared {
  statement: BetterSqlite3.Statement;
  /** For statements that return rows: builds one row object from the raw values array. */
  build?: (values: unknown[]) => Record<string, unknown>;
}

/**
 * Rows are read as arrays and turned into objects by a function compiled once per statement:
 * every row object then has the same shape from birth, which is about a third cheaper than
 * better-sqlite3 building objects key by key. Keys are JSON-escaped, so any column name is safe.
 * A value read straight from a boolean column (see columns.ts) becomes a boolean, as PostgreSQL
 * returns it; an expression over one (a count, a sum) stays a number.
 */
function rowBuilder(columns: BetterSqlite3.ColumnDefinition[]): (values: unknown[]) => Record<string, unknown> {
  const fields = columns
    .map((column, i) => {
      const value = isBooleanColumn(column.table, column.column)
        ? `(v[${i}] === null ? null : v[${i}] !== 0)`
        : `v[${i}]`;
      return `${JSON.stringify(column.name)}: ${value}`;
    })
    .join(", ");
  return new Function("v", `return { ${fields} };`) as (values: unknown[]) => Record<string, unknown>;
}

class SqliteConnection implements DatabaseConnection {
  readonly #database: BetterSqlite3.Database;
  readonly #statements = new Map<string, Prepared>();
  readonly #writes: { count: number };

  constructor(database: BetterSqlite3.Database, writes: { count: number }) {
    this.#database = database;
    this.#writes = writes;
  }

  #prepare(sqlText: string): Prepared {
    let prepared = this.#statements.get(sqlText);
    if (prepared === undefined) {
      const statement = this.#database.prepare(sqlText);
      prepared = { statement };
      if (statement.reader) {
        statement.raw(true);
        prepared.build = rowBuilder(statement.columns());
      }
      if (this.#statements.size >= STATEMENT_CACHE_SIZE) {
        const oldest = this.#statements.keys().next().value;
        if (oldest !== undefined) this.#statements.delete(oldest);
      }
      this.#statements.set(sqlText, prepared);
    }
    return prepared;
  }

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const { statement, build } = this.#prepare(compiled.sql);
    if (!statement.readonly) this.#writes.count++;
    // better-sqlite3 binds no booleans: they are stored as 1 and 0.
    const parameters = (compiled.parameters as unknown[]).map((p) => (typeof p === "boolean" ? (p ? 1 : 0) : p));
    if (build !== undefined) {
      return { rows: (statement.all(...parameters) as unknown[][]).map(build) as R[] };
    }
    const { changes } = statement.run(...parameters);
    return { numAffectedRows: BigInt(changes), rows: [] };
  }

  // biome-ignore lint/correctness/useYield: streaming is not used; the interface requires the method.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error("Streaming queries are not supported on SQLite");
  }
}

/**
 * FIFO lock on the single connection. Unlocking hands the connection straight to the next
 * waiter, so N concurrent requests cost N wake-ups, not N² (a "wake everyone and retry" lock
 * collapses under load).
 */
class ConnectionMutex {
  #locked = false;
  readonly #waiters: (() => void)[] = [];

  lock(): Promise<void> {
    if (!this.#locked) {
      this.#locked = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  unlock(): void {
    const next = this.#waiters.shift();
    if (next === undefined) this.#locked = false;
    else next();
  }
}
