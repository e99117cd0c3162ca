import { sql } from "kysely";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRuntime, type Runtime } from "../../src/app/runtime.ts";
import { openDatabase } from "../../src/db/database.ts";
import { migrateToLatest } from "../../src/db/migrate.ts";
import { MIGRATIONS } from "../../src/db/migrations/index.ts";
import { createAnalysis } from "../../src/services/analyses/create.ts";
import type { ServiceContext } from "../../src/services/context.ts";
import { failure } from "../../src/services/engines/types.ts";
import { createProject } from "../../src/services/projects/projects.ts";
import { listResults } from "../../src/services/results/results.ts";
import type { NewResult } from "../../src/services/results/store.ts";
import { insertResults } from "../../src/services/results/store.ts";
import {
  dropResultMonths,
  ensureResultPartitions,
  moveResults,
  resultsMove,
} from "../../src/services/retention/partitions.ts";
import { createWorkspace, workspaceContext } from "../../src/services/workspaces/workspaces.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";
import { TEST_SECRET_KEY } from "../helpers/harness.ts";

const ROWS = 20_000;

/**
 * PostgreSQL's answers moving into monthly partitions while Sightline writes: a database with
 * answers written under the previous layout, then the migration, then writes, updates and a delete
 * while the workers' maintenance copies batches, then `partitions finish`. Nothing is lost or
 * doubled, every change made during the move is there, and the list reads the same pages.
 */
describe("results in monthly partitions [postgres]", () => {
  let db: TestDatabase;
  let runtime: Runtime;
  let ctx: ServiceContext;
  let analysis: { id: string; workspace_id: string; project_id: string; score_version: string; created_at: string };
  let last = "";
  let projectId = "";

  beforeAll(async () => {
    db = await createTestDatabase("postgres");
    // The schema as the previous release left it, with answers in one table.
    const before = openDatabase(db.config);
    await migrateToLatest(
      before,
      MIGRATIONS.slice(
        0,
        MIGRATIONS.findIndex((m) => m.name === "2026-11-28-01-results-partitions"),
      ),
    );
    await before.close();
    runtime = await createRuntime({ database: db.config, secretKeys: [TEST_SECRET_KEY] }, pino({ level: "silent" }), {
      migrate: false,
    });
    const workspace = await createWorkspace(runtime.deps, { name: "Partitions", plan: "agency" });
    ctx = await workspaceContext(runtime.deps, workspace.id);
    const now = new Date().toISOString();
    const project = await createProject(ctx, {
      name: "Parts",
      primary_domain: "parts.example.com",
      prompts: ["p"],
      engines: ["sandbox"],
    });
    // Two analyses: one started last month, one this month (their jobs wait: no worker runs here).
    const lastMonth = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() - 1, 15)).toISOString();
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) ids.push((await createAnalysis(ctx, { project_id: project.id })).id);
    await runtime.deps.db
      .updateTable("analyses")
      .set({ created_at: lastMonth })
      .where("id", "=", ids[0] as string)
      .execute();
    await sql`INSERT INTO results (id, workspace_id, project_id, analysis_id, engine, prompt, prompt_index, sample,
        status, mentioned, brand_cited, citation_count, brand_citation_count, score_version, attempts, latency_ms, created_at, text)
      SELECT 'res_' || lpad(g::text, 24, '0'), ${workspace.id}, ${project.id},
        CASE WHEN g % 2 = 0 THEN ${ids[0]} ELSE ${ids[1]} END, 'sandbox', 'p', g, 0,
        'succeeded', g % 3 = 0, false, 0, 0, 'v1', 1, 10,
        (${now}::timestamptz - (g || ' seconds')::interval), 'answer ' || g
      FROM generate_series(1, ${ROWS}) AS g`.execute(runtime.deps.db);
    await migrateToLatest(runtime.database);
    last = ids[0] as string;
    analysis = await runtime.deps.db
      .selectFrom("analyses")
      .selectAll()
      .where("id", "=", ids[1] as string)
      .executeTakeFirstOrThrow();
    projectId = project.id;
  }, 120_000);
  afterAll(async () => {
    await runtime?.close();
    await db?.drop();
  });

  async function allPages(): Promise<string[]> {
    const ids: string[] = [];
    let cursor: string | null = null;
    for (;;) {
      const page = await listResults(ctx, {
        project_id: projectId,
        limit: 100,
        ...(cursor === null ? {} : { cursor }),
      });
      ids.push(...page.data.map((r) => r.id));
      if (page.next_cursor === null) return ids;
      cursor = page.next_cursor;
    }
  }

  it("moves a populated table in batches while answers are written, changed and deleted, then swaps it in", async () => {
    expect((await resultsMove(runtime.deps)).state).toBe("moving");
    const pagesBefore = await allPages();
    expect(pagesBefore).toHaveLength(ROWS);

    const started = performance.now();
    let batches = 0;
    let written = 0;
    for (;;) {
      // The workers' maintenance copies a little at a time, while the product keeps writing.
      const progress = await moveResults(runtime.deps, { budgetMs: 1 });
      batches++;
      await insertResults(runtime.deps, [
        {
          analysis,
          engine: "sandbox",
          prompt: "p",
          promptIndex: ROWS + written,
          sample: 0,
          outcome: failure("written during the move") as NewResult["outcome"],
          attempts: 1,
          latencyMs: 1,
          costMicros: null,
          createdAt: new Date().toISOString(),
        },
      ]);
      written++;
      if (progress.copied === 0) break;
    }
    await sql`UPDATE results SET text = 'changed during the move' WHERE id = 'res_000000000000000000000007'`.execute(
      runtime.deps.db,
    );
    await sql`DELETE FROM results WHERE id = 'res_000000000000000000000008'`.execute(runtime.deps.db);
    const copySeconds = (performance.now() - started) / 1000;

    const finishStarted = performance.now();
    const finished = await moveResults(runtime.deps, { budgetMs: Number.POSITIVE_INFINITY, finish: true });
    const finishSeconds = (performance.now() - finishStarted) / 1000;
    expect(finished.finished).toBe(true);
    console.log(
      `[postgres] ${ROWS} answers moved in ${batches} batches over ${copySeconds.toFixed(1)} s while ${written} were written; the swap took ${finishSeconds.toFixed(2)} s`,
    );

    const layout = await resultsMove(runtime.deps);
    expect(layout.state).toBe("partitioned");
    const partitioned = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_partitioned_table
      WHERE partrelid = 'results'::regclass`.execute(runtime.deps.db);
    expect(partitioned.rows[0]?.n).toBe(1);

    // Nothing lost, nothing doubled; the change and the delete made during the move are there.
    const counts = await sql<{
      n: number;
      ids: number;
    }>`SELECT count(*)::int AS n, count(DISTINCT id)::int AS ids FROM results`.execute(runtime.deps.db);
    expect(counts.rows[0]).toEqual({ n: ROWS - 1 + written, ids: ROWS - 1 + written });
    const changed = await runtime.deps.db
      .selectFrom("results")
      .select("text")
      .where("id", "=", "res_000000000000000000000007")
      .executeTakeFirst();
    expect(changed?.text).toBe("changed during the move");
    expect(
      await runtime.deps.db
        .selectFrom("results")
        .select("id")
        .where("id", "=", "res_000000000000000000000008")
        .executeTakeFirst(),
    ).toBeUndefined();

    // Every answer is in its analysis's month.
    const months = await sql<{ analysis_id: string; month: string; n: number }>`
      SELECT analysis_id, month, count(*)::int AS n FROM results GROUP BY 1, 2 ORDER BY 1`.execute(runtime.deps.db);
    const lastMonth = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() - 1, 1))
      .toISOString()
      .slice(0, 7);
    expect(months.rows.map((r) => [r.analysis_id, r.month]).sort()).toEqual(
      [
        [last, lastMonth],
        [analysis.id, analysis.created_at.slice(0, 7)],
      ].sort(),
    );

    // The list reads the same pages, the answers written meanwhile first.
    const pagesAfter = await allPages();
    expect(pagesAfter.slice(written)).toEqual(pagesBefore.filter((id) => id !== "res_000000000000000000000008"));

    // The BI views and their policy read the new table.
    const views = await sql<{ n: number }>`SELECT count(DISTINCT r.ev_class)::int AS n FROM pg_depend d
      JOIN pg_rewrite r ON r.oid = d.objid WHERE d.refobjid = 'results'::regclass`.execute(runtime.deps.db);
    expect(views.rows[0]?.n).toBeGreaterThanOrEqual(2);
    const policy = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_policy
      WHERE polrelid = 'results'::regclass AND polname = 'bi_workspace'`.execute(runtime.deps.db);
    expect(policy.rows[0]?.n).toBe(1);
    expect(await sql`SELECT to_regclass('results_unpartitioned') AS t`.execute(runtime.deps.db)).toMatchObject({
      rows: [{ t: null }],
    });
  }, 120_000);

  it("writes an answer once however often it is written, keeps months ready ahead, and drops whole months", async () => {
    const answer = {
      analysis,
      engine: "sandbox",
      prompt: "p",
      promptIndex: 999_999,
      sample: 0,
      outcome: failure("twice") as NewResult["outcome"],
      attempts: 1,
      latencyMs: 1,
      costMicros: null,
    };
    await insertResults(runtime.deps, [{ ...answer, createdAt: new Date().toISOString() }]);
    await insertResults(runtime.deps, [{ ...answer, createdAt: new Date(Date.now() + 5_000).toISOString() }]);
    const copies = await runtime.deps.db
      .selectFrom("results")
      .select("id")
      .where("analysis_id", "=", analysis.id)
      .where("prompt_index", "=", 999_999)
      .execute();
    expect(copies).toHaveLength(1);

    await ensureResultPartitions(runtime.deps);
    const layout = await resultsMove(runtime.deps);
    const ahead = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() + 3, 1))
      .toISOString()
      .slice(0, 7);
    expect(layout).toMatchObject({ state: "partitioned" });
    expect((layout as { partitions: string[] }).partitions).toContain(`results_${ahead.replace("-", "_")}`);

    const lastMonth = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() - 1, 1))
      .toISOString()
      .slice(0, 7);
    // Last month's analysis stored its answers this month: its partition is recorded as holding them.
    const spilled = async () =>
      (await sql<{ month: string }>`SELECT month FROM result_spills`.execute(runtime.deps.db)).rows.map((r) => r.month);
    expect(await spilled()).toContain(lastMonth);
    const dropped = await dropResultMonths(runtime.deps, 0);
    expect(dropped).toContain(lastMonth);
    expect(await spilled()).not.toContain(lastMonth);
    const left = await runtime.deps.db.selectFrom("results").select("id").where("analysis_id", "=", last).execute();
    expect(left).toEqual([]);
    expect(
      (await runtime.deps.db.selectFrom("results").select("id").where("analysis_id", "=", analysis.id).execute())
        .length,
    ).toBeGreaterThan(0);
  });
});
