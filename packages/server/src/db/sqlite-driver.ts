import type BetterSqlite3 from "better-sqlite3";
import { CompiledQuery, type DatabaseConnection, type Driver, type QueryResult } from "kysely";

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely driver for better-sqlite3 with two differences from the stock one:
 * - transactions start with BEGIN IMMEDIATE, so a transaction takes the write lock up front and
 *   waits (busy_timeout) for another process instead of failing with SQLITE_BUSY on upgrade;
 * - prepared statements are cached by SQL text, which matters on the hot read paths.
 */
export class SqliteDriver implements Driver {
  readonly #database: BetterSqlite3.Database;
  readonly #mutex = new ConnectionMutex();
  readonly #connection: SqliteConnection;

  constructor(database: BetterSqlite3.Database) {
    this.#database = database;
    this.#connection = new SqliteConnection(database);
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

class SqliteConnection implements DatabaseConnection {
  readonly #database: BetterSqlite3.Database;
  readonly #statements = new Map<string, BetterSqlite3.Statement>();

  constructor(database: BetterSqlite3.Database) {
    this.#database = database;
  }

  #prepare(sqlText: string): BetterSqlite3.Statement {
    let statement = this.#statements.get(sqlText);
    if (statement === undefined) {
      statement = this.#database.prepare(sqlText);
      if (this.#statements.size >= STATEMENT_CACHE_SIZE) {
        const oldest = this.#statements.keys().next().value;
        if (oldest !== undefined) this.#statements.delete(oldest);
      }
      this.#statements.set(sqlText, statement);
    }
    return statement;
  }

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const statement = this.#prepare(compiled.sql);
    const parameters = compiled.parameters as unknown[];
    if (statement.reader) {
      return { rows: statement.all(...parameters) as R[] };
    }
    const { changes } = statement.run(...parameters);
    return { numAffectedRows: BigInt(changes), rows: [] };
  }

  // biome-ignore lint/correctness/useYield: streaming is not used; the interface requires the method.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error("Streaming queries are not supported on SQLite");
  }
}

class ConnectionMutex {
  #current: Promise<void> | undefined;
  #release: (() => void) | undefined;

  async lock(): Promise<void> {
    while (this.#current !== undefined) await this.#current;
    this.#current = new Promise((resolve) => {
      this.#release = resolve;
    });
  }

  unlock(): void {
    const release = this.#release;
    this.#current = undefined;
    this.#release = undefined;
    release?.();
  }
}
