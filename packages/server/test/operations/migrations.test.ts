import { afterEach, describe, expect, it } from "vitest";
import { openDatabase } from "../../src/db/database.ts";
import { migrateToLatest } from "../../src/db/migrate.ts";
import { MIGRATIONS } from "../../src/db/migrations/index.ts";
import { createTestDatabase, DIALECTS, type TestDatabase } from "../helpers/databases.ts";
import { runCli } from "../helpers/processes.ts";

describe.each(DIALECTS)("migrations [%s]", (dialect) => {
  let testDb: TestDatabase | undefined;
  afterEach(async () => {
    await testDb?.drop();
    testDb = undefined;
  });

  it("apply once and are idempotent", async () => {
    testDb = await createTestDatabase(dialect);
    const database = openDatabase(testDb.config);
    try {
      expect(await migrateToLatest(database)).toEqual(MIGRATIONS.map((m) => m.name));
      expect(await migrateToLatest(database)).toEqual([]);
      const rows = await database.db.selectFrom("schema_migrations").select("name").execute();
      expect(rows.map((r) => r.name)).toEqual(MIGRATIONS.map((m) => m.name));
    } finally {
      await database.close();
    }
  });

  it("are safe when several processes start at once", async () => {
    testDb = await createTestDatabase(dialect);
    const env = { DATABASE_URL: testDb.url };
    // Two processes are enough to race; each spawn costs seconds.
    const results = await Promise.all([1, 2].map(() => runCli(["migrate"], env)));
    for (const result of results) expect(result.code, result.stderr).toBe(0);
    const database = openDatabase(testDb.config);
    try {
      const rows = await database.db.selectFrom("schema_migrations").select("name").execute();
      expect(rows).toHaveLength(MIGRATIONS.length);
    } finally {
      await database.close();
    }
  });

  // In one process, SQLite connections would block each other's event loop in busy_timeout, so
  // SQLite's serialisation (BEGIN IMMEDIATE) is covered by the multi-process test above.
  if (dialect === "postgres")
    it("serialise concurrent runs: each migration applies exactly once", async () => {
      testDb = await createTestDatabase(dialect);
      const config = testDb.config;
      const handles = [1, 2, 3, 4, 5].map(() => openDatabase(config));
      try {
        const applied = await Promise.all(handles.map((database) => migrateToLatest(database)));
        expect(applied.flat().sort()).toEqual(MIGRATIONS.map((m) => m.name).sort());
      } finally {
        await Promise.all(handles.map((database) => database.close()));
      }
    });

  it("roll back entirely when one fails, and refuse a database migrated by a newer version", async () => {
    testDb = await createTestDatabase(dialect);
    const database = openDatabase(testDb.config);
    try {
      const failing = [
        ...MIGRATIONS,
        {
          name: "9999-01-01-broken",
          up: async () => {
            throw new Error("boom");
          },
        },
      ];
      await expect(migrateToLatest(database, failing)).rejects.toThrow("boom");
      const tables = await database.db.introspection.getTables();
      expect(tables.map((t) => t.name)).not.toContain("projects");

      await migrateToLatest(database, [...MIGRATIONS, { name: "9999-01-01-future", up: async () => {} }]);
      await expect(migrateToLatest(database)).rejects.toThrow(/newer version/);
    } finally {
      await database.close();
    }
  });
});
