import { sql } from "kysely";
import { beforeAll, expect, it } from "vitest";
import { describeEachDialect, type Harness, type Tenant } from "../helpers/harness.ts";
import { planInUse } from "../helpers/plans.ts";

const brand = {
  name: "Acme CRM",
  aliases: ["Acme"],
  primary_domain: "acmecrm.com",
  competitors: [
    { name: "HubSpot", domains: ["hubspot.com"] },
    { name: "Pipedrive", domains: ["pipedrive.com"] },
  ],
  prompts: ["best CRM for a small agency", "CRM with a good Slack integration"],
};

interface Row {
  search: string;
  answers: number;
  engines: Record<string, number>;
  brand: boolean;
  competitors: string[];
}

/** A stored answer as the worker writes it, with the searches a vendor reported (or, by default, none). */
async function storeAnswer(h: Harness, t: Tenant, projectId: string, searches?: string[]): Promise<void> {
  const analysis = await h.deps.db
    .selectFrom("analyses")
    .selectAll()
    .where("project_id", "=", projectId)
    .executeTakeFirstOrThrow();
  const id = `res_extra${Math.random().toString(36).slice(2, 12)}`;
  await h.deps.db
    .insertInto("results")
    .values({
      id,
      workspace_id: t.workspace.id,
      project_id: projectId,
      analysis_id: analysis.id,
      engine: "chatgpt",
      model: "gpt-5",
      prompt: "extra",
      prompt_index: 100 + Math.floor(Math.random() * 1_000_000),
      sample: 1,
      status: "succeeded",
      error: null,
      text: "An answer.",
      measure: null,
      mentioned: false,
      position: null,
      sentiment: null,
      brand_cited: false,
      citation_count: 0,
      brand_citation_count: 0,
      score: 0,
      score_version: "2",
      attempts: 1,
      latency_ms: 1,
      created_at: h.clock.now().toISOString(),
      ...(searches === undefined ? {} : { searches: JSON.stringify(searches) }),
    })
    .execute();
}

describeEachDialect("query fan-out: the searches engines ran", (h) => {
  let t: Tenant;
  let projectId: string;
  let results: { engine: string; status: string; prompt: string; searches: string[] }[];

  beforeAll(async () => {
    await h.startWorker();
    t = await h.tenant("agency");
    projectId = (await h.call("createProject", { key: t.key, body: brand })).json().id;
    const res = await h.call("analyze", {
      key: t.key,
      body: { project_id: projectId, engines: ["sandbox"], samples: 3, wait: 30 },
    });
    expect(res.statusCode, res.body).toBe(200);
    results = (await h.call("listResults", { key: t.key, query: { project_id: projectId, limit: 100 } })).json().data;
  });

  it("stores on each result the searches the engine reported", () => {
    expect(results).toHaveLength(6);
    for (const result of results) {
      expect(result.status).toBe("succeeded");
      expect(result.searches.slice(0, 2)).toEqual([
        result.prompt.toLowerCase(),
        `${result.prompt.toLowerCase()} reviews`,
      ]);
    }
  });

  it("counts each search once per answer, per engine, with the brand and competitors it names", async () => {
    const res = await h.call("getProjectSearches", { key: t.key, params: { id: projectId }, query: { limit: 100 } });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.object).toBe("project_searches");
    expect(body.totals).toMatchObject({ answers: 6, answers_with_searches: 6 });
    const expected = new Map<string, number>();
    for (const result of results)
      for (const search of result.searches) expected.set(search, (expected.get(search) ?? 0) + 1);
    expect(body.totals.searches).toBe(expected.size);
    const rows: Row[] = body.data;
    expect(rows.map((row) => [row.search, row.answers]).sort()).toEqual([...expected.entries()].sort());
    for (const row of rows) expect(row.engines).toEqual({ sandbox: row.answers });
    const counts = rows.map((row) => row.answers);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    const prompt = rows.find((row) => row.search === "best crm for a small agency");
    expect(prompt).toMatchObject({ answers: 3, brand: false, competitors: [] });
    // The sandbox's comparisons name two of the tracked brands: "A vs B".
    const comparisons = rows.filter((row) => row.search.includes(" vs "));
    expect(comparisons.length).toBeGreaterThan(0);
    for (const row of comparisons) {
      const names = row.search.split(" vs ");
      expect(row.brand).toBe(names.includes("Acme CRM"));
      expect(row.competitors.sort()).toEqual(names.filter((name) => name !== "Acme CRM").sort());
    }
  });

  it("groups spellings that differ in case and spacing, shows the most common, and reads older answers as none", async () => {
    await storeAnswer(h, t, projectId, ["HubSpot alternatives", "acme pricing"]);
    await storeAnswer(h, t, projectId, ["hubspot  alternatives"]);
    await storeAnswer(h, t, projectId, ["HubSpot alternatives", "HUBSPOT ALTERNATIVES"]);
    await storeAnswer(h, t, projectId);
    const body = (
      await h.call("getProjectSearches", {
        key: t.key,
        params: { id: projectId },
        query: { engine: "chatgpt", limit: 1 },
      })
    ).json();
    expect(body.totals).toEqual({ answers: 4, answers_with_searches: 3, searches: 2 });
    expect(body.data).toEqual([
      { search: "HubSpot alternatives", answers: 3, engines: { chatgpt: 3 }, brand: false, competitors: ["HubSpot"] },
    ]);
    const acme = (
      await h.call("getProjectSearches", { key: t.key, params: { id: projectId }, query: { engine: "chatgpt" } })
    ).json().data[1];
    // An alias counts as the brand.
    expect(acme).toMatchObject({ search: "acme pricing", brand: true, competitors: [] });
  });

  it("is scoped: another workspace's project is 404, and its searches never count", async () => {
    const other = await h.tenant("agency");
    const res = await h.call("getProjectSearches", { key: other.key, params: { id: projectId } });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe("NOT_FOUND");
  });

  it("refuses a bad limit, period or engine with 400", async () => {
    const bad: Record<string, string | number>[] = [
      { limit: 0 },
      { limit: 101 },
      { limit: "many" },
      { from: "yesterday" },
      { engine: "nope" },
    ];
    for (const query of bad) {
      const res = await h.call("getProjectSearches", { key: t.key, params: { id: projectId }, query });
      expect(res.statusCode, JSON.stringify(query)).toBe(400);
      expect(res.json().error.code).toBe("VALIDATION_ERROR");
    }
  });

  it("reads an indexed range of the project's results", async () => {
    const plan = await planInUse(
      h,
      t,
      projectId,
      (explain) =>
        sql`${explain} SELECT engine, searches FROM results WHERE workspace_id = ${t.workspace.id} AND project_id = ${projectId} AND created_at >= ${"2026-01-01T00:00:00.000Z"} AND created_at < ${"2027-01-01T00:00:00.000Z"} AND status = 'succeeded'`,
    );
    // The (workspace, brand, created_at) index: the table's on SQLite, each month partition's on PostgreSQL.
    expect(plan).toMatch(/results_project_created|results_\d{4}_\d{2}_workspace_id_project_id_created_at_id_idx/);
    expect(plan).not.toMatch(/Seq Scan on results_\d{4}/);
  });
});
