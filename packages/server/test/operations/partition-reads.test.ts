import { sql } from "kysely";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRuntime, type Runtime } from "../../src/app/runtime.ts";
import { createAnalysis } from "../../src/services/analyses/create.ts";
import type { ServiceContext } from "../../src/services/context.ts";
import { failure } from "../../src/services/engines/types.ts";
import { createProject } from "../../src/services/projects/projects.ts";
import { listResults } from "../../src/services/results/results.ts";
import { insertResults, type NewResult } from "../../src/services/results/store.ts";
import { createWorkspace, workspaceContext } from "../../src/services/workspaces/workspaces.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";
import { TEST_SECRET_KEY } from "../helpers/harness.ts";

function monthStart(offset: number): Date {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1));
}
const minutes = (from: Date, n: number) => new Date(from.getTime() + n * 60_000).toISOString();

/**
 * PostgreSQL reads a page of answers one month's partitions at a time (services/results/windows.ts).
 * An answer's partition is its analysis's month, so an analysis that ran past its month's end, or a
 * clock behind the analysis's, stores answers in a partition other than their own month's: the
 * list must still give every answer once, newest first, on every page size and range.
 */
describe("answers read newest first across monthly partitions [postgres]", () => {
  let db: TestDatabase;
  let runtime: Runtime;
  let ctx: ServiceContext;
  let projectId = "";

  beforeAll(async () => {
    db = await createTestDatabase("postgres");
    runtime = await createRuntime({ database: db.config, secretKeys: [TEST_SECRET_KEY] }, pino({ level: "silent" }));
    const workspace = await createWorkspace(runtime.deps, { name: "Months", plan: "agency" });
    ctx = await workspaceContext(runtime.deps, workspace.id);
    const project = await createProject(ctx, {
      name: "Months",
      primary_domain: "months.example.com",
      prompts: ["p"],
      engines: ["sandbox"],
    });
    projectId = project.id;
    // Analyses started this month and 1, 2 and 3 months ago; the last has no partition (its answers
    // land in the default one).
    const analyses: NewResult["analysis"][] = [];
    for (let back = 0; back <= 3; back++) {
      const created = await createAnalysis(ctx, { project_id: project.id });
      const startedAt = back === 0 ? minutes(monthStart(0), 1) : minutes(monthStart(-back), 14 * 24 * 60);
      await runtime.deps.db
        .updateTable("analyses")
        .set({ created_at: startedAt })
        .where("id", "=", created.id)
        .execute();
      if (back === 1 || back === 2)
        await sql`SELECT sightline_results_partition(${startedAt.slice(0, 7)})`.execute(runtime.deps.db);
      analyses.push(
        await runtime.deps.db.selectFrom("analyses").selectAll().where("id", "=", created.id).executeTakeFirstOrThrow(),
      );
    }
    let index = 0;
    const answer = (back: number, createdAt: string): NewResult => ({
      analysis: analyses[back] as NewResult["analysis"],
      engine: "sandbox",
      prompt: "p",
      promptIndex: index++,
      sample: 0,
      outcome: failure("stored") as NewResult["outcome"],
      attempts: 1,
      latencyMs: 1,
      costMicros: null,
      createdAt,
    });
    await insertResults(runtime.deps, [
      // Three months ago, in its month.
      answer(3, minutes(monthStart(-3), 20 * 24 * 60)),
      answer(3, minutes(monthStart(-3), 21 * 24 * 60)),
      // Two months ago: two in its month, two stored this month (it ran on).
      answer(2, minutes(monthStart(-2), 15 * 24 * 60)),
      answer(2, minutes(monthStart(-2), 16 * 24 * 60)),
      answer(2, minutes(monthStart(0), 3)),
      answer(2, minutes(monthStart(0), 7)),
      // Last month: two in its month, its last millisecond, and one stored this month.
      answer(1, minutes(monthStart(-1), 15 * 24 * 60)),
      answer(1, new Date(monthStart(0).getTime() - 1).toISOString()),
      answer(1, minutes(monthStart(0), 5)),
      // This month: three, and one a second before the month began (a worker's clock behind).
      answer(0, minutes(monthStart(0), 2)),
      answer(0, minutes(monthStart(0), 4)),
      answer(0, minutes(monthStart(0), 6)),
      answer(0, new Date(monthStart(0).getTime() - 1_000).toISOString()),
    ]);
  }, 60_000);
  afterAll(async () => {
    await runtime?.close();
    await db?.drop();
  });

  async function expected(range: { from?: string; to?: string } = {}): Promise<string[]> {
    let query = runtime.deps.db.selectFrom("results").select("id").where("project_id", "=", projectId);
    if (range.from !== undefined) query = query.where("created_at", ">=", range.from);
    if (range.to !== undefined) query = query.where("created_at", "<", range.to);
    const rows = await query.orderBy("created_at", "desc").orderBy("id", "desc").execute();
    return rows.map((row) => row.id);
  }

  async function listed(limit: number, range: { from?: string; to?: string } = {}): Promise<string[]> {
    const ids: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 100; page++) {
      const next = await listResults(ctx, {
        project_id: projectId,
        limit,
        ...range,
        ...(cursor === null ? {} : { cursor }),
      });
      ids.push(...next.data.map((result) => result.id));
      if (next.next_cursor === null) break;
      cursor = next.next_cursor;
    }
    return ids;
  }

  it("records the partitions holding answers from outside their month, and from when to when", async () => {
    const { rows } = await sql<{ month: string; oldest_at: string; newest_at: string }>`
      SELECT month, oldest_at, newest_at FROM result_spills ORDER BY month`.execute(runtime.deps.db);
    expect(rows).toEqual([
      {
        month: monthStart(-2).toISOString().slice(0, 7),
        oldest_at: minutes(monthStart(0), 3),
        newest_at: minutes(monthStart(0), 7),
      },
      {
        month: monthStart(-1).toISOString().slice(0, 7),
        oldest_at: minutes(monthStart(0), 5),
        newest_at: minutes(monthStart(0), 5),
      },
      {
        month: monthStart(0).toISOString().slice(0, 7),
        oldest_at: new Date(monthStart(0).getTime() - 1_000).toISOString(),
        newest_at: new Date(monthStart(0).getTime() - 1_000).toISOString(),
      },
    ]);
  });

  it("lists every answer once, newest first, at every page size", async () => {
    const all = await expected();
    expect(all).toHaveLength(13);
    for (const limit of [1, 2, 3, 4, 5, 7, 13, 100]) expect(await listed(limit), `limit ${limit}`).toEqual(all);
  });

  it("lists every answer of a range once, newest first", async () => {
    const ranges = [
      { from: monthStart(-1).toISOString() },
      { to: monthStart(0).toISOString() },
      { from: monthStart(-2).toISOString(), to: minutes(monthStart(0), 5) },
      { from: minutes(monthStart(0), 4), to: minutes(monthStart(0), 6) },
      { to: minutes(monthStart(-1), 1) },
    ];
    for (const range of ranges) {
      const want = await expected(range);
      expect(want.length, JSON.stringify(range)).toBeGreaterThan(0);
      for (const limit of [1, 3, 100])
        expect(await listed(limit, range), JSON.stringify({ range, limit })).toEqual(want);
    }
  });

  it("would miss the answers stored after their month without that record", async () => {
    const month = monthStart(-2).toISOString().slice(0, 7);
    const kept = await sql<{ oldest_at: string; newest_at: string }>`
      DELETE FROM result_spills WHERE month = ${month} RETURNING oldest_at, newest_at`.execute(runtime.deps.db);
    try {
      const ids = await listed(3);
      expect(ids).toHaveLength(11); // the two answers of two months ago stored this month are not read
    } finally {
      const row = kept.rows[0];
      await sql`INSERT INTO result_spills (month, oldest_at, newest_at)
        VALUES (${month}, ${row?.oldest_at}, ${row?.newest_at})`.execute(runtime.deps.db);
    }
    expect(await listed(3)).toEqual(await expected());
  });
});
