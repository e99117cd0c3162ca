import { type RawBuilder, sql } from "kysely";
import type { Harness, Tenant } from "./harness.ts";

/**
 * The query plan of `query` (a statement over `results`, given its EXPLAIN prefix) as the database
 * would choose it in use. On SQLite, as it is. On PostgreSQL, with another brand's answers beside
 * the project's (400 copies of each) and fresh statistics, as autovacuum keeps them (the test
 * server runs without it), and sequential scans forbidden: on a table of a few rows and without
 * statistics every index looks alike to the planner. Runs in a transaction rolled back afterwards.
 */
export async function planInUse(
  h: Harness,
  t: Tenant,
  projectId: string,
  query: (explain: RawBuilder<unknown>) => RawBuilder<unknown>,
): Promise<string> {
  if (h.dialect === "sqlite") return JSON.stringify((await query(sql`EXPLAIN QUERY PLAN`).execute(h.deps.db)).rows);
  const other = await h.call("createProject", {
    key: t.key,
    body: { name: "Another brand", primary_domain: "another-brand.example" },
  });
  let plan = "";
  await h.deps.db
    .transaction()
    .execute(async (trx) => {
      await sql`
        INSERT INTO results
        SELECT (jsonb_populate_record(r, jsonb_build_object(
          'id', r.id || '_' || g, 'project_id', ${other.json().id}::text, 'sample', r.sample + g * 1000))).*
        FROM results r, generate_series(1, 400) g
        WHERE r.workspace_id = ${t.workspace.id} AND r.project_id = ${projectId}`.execute(trx);
      await sql`ANALYZE results`.execute(trx);
      await sql`SET LOCAL enable_seqscan = off`.execute(trx);
      plan = JSON.stringify((await query(sql`EXPLAIN`).execute(trx)).rows);
      throw new RolledBack();
    })
    .catch((error: unknown) => {
      if (!(error instanceof RolledBack)) throw error;
    });
  return plan;
}

class RolledBack extends Error {}
