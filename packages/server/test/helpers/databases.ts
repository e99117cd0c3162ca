import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { inject } from "vitest";
import type { DatabaseConfig } from "../../src/config/database-url.ts";
import type { Dialect } from "../../src/db/database.ts";
import { randomBase62 } from "../../src/lib/ids.ts";

export const DIALECTS: Dialect[] = ["sqlite", "postgres"];

/**
 * Where the PostgreSQL suites create their databases: TEST_DATABASE_URL, the server on 127.0.0.1:5432, or an embedded
 * one, as the global setup found or started it for the run (helpers/global-setup.ts). Exported for suites that need
 * the server itself.
 * @public
 */
export const POSTGRES_ADMIN_URL = inject("postgresAdminUrl");

/** The same server through PgBouncer in transaction mode, when the run started one (helpers/global-setup.ts). */
const POSTGRES_POOLER_URL = inject("postgresPoolerUrl");

export interface TestDatabase {
  config: DatabaseConfig;
  /** The same database as a DATABASE_URL, for child processes. */
  url: string;
  /**
   * The database without the pooler (DATABASE_DIRECT_URL): for `LISTEN` and for BI logins, which
   * PgBouncer does not know. The same as `url` when the run has no pooler, and on SQLite.
   */
  directUrl: string;
  drop(): Promise<void>;
}

/** A brand-new, empty database of the dialect, dropped by `drop()`. Never shared between files. */
export async function createTestDatabase(dialect: Dialect): Promise<TestDatabase> {
  if (dialect === "sqlite") {
    const dir = mkdtempSync(join(tmpdir(), "sightline-test-"));
    const path = join(dir, "test.db");
    return {
      config: { dialect: "sqlite", path },
      url: `sqlite:${path}`,
      directUrl: `sqlite:${path}`,
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const name = `sl_test_${randomBase62(12).toLowerCase()}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const direct = new URL(POSTGRES_ADMIN_URL);
  direct.pathname = `/${name}`;
  const url = new URL(POSTGRES_POOLER_URL || POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    config: { dialect: "postgres", url: url.toString() },
    url: url.toString(),
    directUrl: direct.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await client.connect();
      try {
        await client.query(`drop database if exists ${name} with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}
