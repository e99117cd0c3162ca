import { sql } from "kysely";
import { beforeAll, expect, it } from "vitest";
import { createAnalysis } from "../../src/services/analyses/create.ts";
import { competitorSuggestions } from "../../src/services/analytics/competitor-suggestions.ts";
import { simulatedRivals } from "../../src/services/engines/adapters/sandbox.ts";
import { proportion } from "../../src/services/measurement/aggregate.ts";
import { workspaceContext } from "../../src/services/workspaces/workspaces.ts";
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
  exclusions: ["Globex Pro"],
  prompts: ["best CRM for a small agency"],
};

/** Generic headings, in bold and in lists, in two answers each: never brands. */
const HEADINGS = [
  "**Pricing**: from $15 a seat.",
  "**Pros**",
  "- Easy to set up",
  "**Best for**: small teams.",
  "**Summary**: pick one.",
  "**Conclusion**",
  "Copper is also good.",
].join("\n");

const ANSWERS: { engine: string; text: string }[] = [
  {
    engine: "chatgpt",
    text: [
      "Here are good options:",
      "",
      "1. **HubSpot** is popular.",
      "2. **Zoho CRM**: affordable.",
      "3. Freshsales is simple to set up.",
      "4. **Globex Pro** is niche.",
      "",
      HEADINGS,
    ].join("\n"),
  },
  {
    engine: "chatgpt",
    text: [
      "| Tool | Best for | Price |",
      "|---|---|---|",
      "| Zoho CRM | small teams | $ |",
      "| FreshSales | startups | $$ |",
      "| Acme CRM | agencies | $$ |",
      "| Globex Pro | niche | $$ |",
      "",
      HEADINGS,
    ].join("\n"),
  },
  {
    engine: "chatgpt",
    text: "Acme CRM vs Salesforce is the usual comparison. Many teams choose HubSpot or Freshsales, and **Zoho CRM** is cheap. Copper is fine.",
  },
  { engine: "chatgpt", text: "Pipedrive vs Salesforce: both are fine. Monday or Tuesday works for a demo." },
  { engine: "chatgpt", text: "- **ZOHO CRM** – great value\n- **Acme** – our pick\n- **HubSpot CRM** – popular" },
  { engine: "gemini", text: "1. Zoho CRM - good value\n2. **HubSpot CRM**\n3. **Acme**" },
];

interface Suggestion {
  name: string;
  answers: number;
  visibility: ReturnType<typeof proportion>;
  engines: Record<string, number>;
  average_position: number | null;
  found_in: string[];
  examples: string[];
}

/** A stored answer as the worker writes it. */
async function storeAnswer(h: Harness, t: Tenant, projectId: string, analysisId: string, answer: (typeof ANSWERS)[0]) {
  const id = `res_cs${Math.random().toString(36).slice(2, 12)}`;
  await h.deps.db
    .insertInto("results")
    .values({
      id,
      workspace_id: t.workspace.id,
      project_id: projectId,
      analysis_id: analysisId,
      engine: answer.engine,
      model: "m",
      prompt: "extra",
      prompt_index: 100 + Math.floor(Math.random() * 1_000_000),
      sample: 1,
      status: "succeeded",
      error: null,
      text: answer.text,
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
    })
    .execute();
  return id;
}

describeEachDialect("competitor discovery from stored answers", (h) => {
  let t: Tenant;
  let projectId: string;
  const ids: string[] = [];

  beforeAll(async () => {
    t = await h.tenant("agency");
    const created = await h.call("createProject", { key: t.key, body: brand });
    expect(created.statusCode, created.body).toBe(201);
    projectId = created.json().id;
    // No worker runs here: the analysis only gives the answers a parent.
    const ctx = await workspaceContext(h.deps, t.workspace.id);
    const analysis = await createAnalysis(ctx, { project_id: projectId, engines: ["sandbox"] });
    for (const answer of ANSWERS) {
      h.clock.advance(1_000);
      ids.push(await storeAnswer(h, t, projectId, analysis.id, answer));
    }
    // A failed answer counts nowhere.
    await h.deps.db
      .updateTable("results")
      .set({ status: "failed" })
      .where("id", "=", await storeAnswer(h, t, projectId, analysis.id, ANSWERS[4] as (typeof ANSWERS)[0]))
      .execute();
  });

  const suggestions = async (query: Record<string, string | number> = {}) => {
    const res = await h.call("getCompetitorSuggestions", { key: t.key, params: { id: projectId }, query });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  it("finds untracked brands in list items, tables, bold names and comparisons, and counts them per answer", async () => {
    const body = await suggestions();
    expect(body).toMatchObject({ object: "competitor_suggestions", scanned: 6, capped: false });
    const data: Suggestion[] = body.data;
    expect(data.map((s) => s.name)).toEqual(["Zoho CRM", "Freshsales", "Salesforce"]);
    const [zoho, freshsales, salesforce] = data as [Suggestion, Suggestion, Suggestion];
    // "ZOHO CRM" is the same brand; the most common spelling is shown.
    expect(zoho).toMatchObject({
      answers: 5,
      visibility: proportion(5, 6),
      engines: { chatgpt: 4, gemini: 1 },
      average_position: 1.33,
      found_in: ["list", "table", "bold"],
    });
    expect(zoho.examples).toHaveLength(2);
    for (const id of zoho.examples) expect([ids[0], ids[1], ids[2], ids[4], ids[5]]).toContain(id);
    expect(freshsales).toMatchObject({
      answers: 3,
      visibility: proportion(3, 6),
      engines: { chatgpt: 3 },
      average_position: 3,
      found_in: ["list", "table", "comparison"],
    });
    expect(salesforce).toMatchObject({ answers: 2, average_position: null, found_in: ["comparison"] });
    expect(salesforce.examples.sort()).toEqual([ids[2], ids[3]].sort());
  });

  it("never suggests tracked names, aliases, exclusion phrases, generic headings, unstructured or one-off names", async () => {
    const names: string[] = (await suggestions({ limit: 100 })).data.map((s: Suggestion) => s.name.toLowerCase());
    for (const never of [
      "acme",
      "acme crm",
      "hubspot",
      "hubspot crm",
      "pipedrive",
      "globex pro",
      "pricing",
      "pros",
      "best for",
      "summary",
      "conclusion",
      "easy to set up",
      "tool",
      "copper",
      "monday",
      "tuesday",
    ])
      expect(names).not.toContain(never);
  });

  it("reads at most the period's most recent answers, and says so", async () => {
    const ctx = await workspaceContext(h.deps, t.workspace.id);
    // The last four answers stored: Salesforce in the first two, Zoho CRM in the first and the last two.
    const body = await competitorSuggestions(ctx, projectId, {}, 4);
    expect(body).toMatchObject({ scanned: 4, capped: true });
    expect(body.data.map((s) => [s.name, s.answers])).toEqual([
      ["Zoho CRM", 3],
      ["Salesforce", 2],
    ]);
    expect(body.data[0]?.visibility).toEqual(proportion(3, 4));
    expect(body.data[0]?.examples).toEqual([ids[5], ids[4]]);
    expect((await competitorSuggestions(ctx, projectId, {}, 6)).capped).toBe(false);
  });

  it("filters by engine and honours limit", async () => {
    const gemini = await suggestions({ engine: "gemini" });
    expect(gemini.scanned).toBe(1);
    // One answer is not enough to suggest a brand.
    expect(gemini.data).toEqual([]);
    expect((await suggestions({ limit: 1 })).data.map((s: Suggestion) => s.name)).toEqual(["Zoho CRM"]);
  });

  it("tracks a suggestion as a competitor (project.updated), after which it is no longer suggested", async () => {
    const res = await h.call("trackCompetitor", {
      key: t.key,
      params: { id: projectId },
      body: { name: "Zoho CRM", domains: ["zoho.com"], aliases: ["Zoho"] },
    });
    expect(res.statusCode, res.body).toBe(200);
    const project = res.json();
    expect(project.competitors.map((c: { name: string }) => c.name)).toEqual(["HubSpot", "Pipedrive", "Zoho CRM"]);
    expect(project.competitors[2]).toMatchObject({ domains: ["zoho.com"], aliases: ["Zoho"] });
    const events = await h.deps.db
      .selectFrom("events")
      .select("data")
      .where("workspace_id", "=", t.workspace.id)
      .where("type", "=", "project.updated")
      .execute();
    expect(events).toHaveLength(1);
    expect(JSON.parse(String(events[0]?.data)).previous_attributes.competitors).toHaveLength(2);
    const names = (await suggestions()).data.map((s: Suggestion) => s.name);
    expect(names).toEqual(["Freshsales", "Salesforce"]);
  });

  it("refuses a name already tracked, and bad bodies, with 400", async () => {
    for (const name of ["zoho crm", "ZOHO", "Acme", "acme crm", "HubSpot"]) {
      const res = await h.call("trackCompetitor", { key: t.key, params: { id: projectId }, body: { name } });
      expect(res.statusCode, name).toBe(400);
      expect(res.json().error.code).toBe("VALIDATION_ERROR");
      expect(res.json().error.message).toMatch(/already tracked|brand's own name/);
    }
    for (const body of [{}, { name: "" }, { name: "X", extra: 1 }, { name: "Y", domains: ["not a domain"] }, "nope"]) {
      const res = await h.call("trackCompetitor", { key: t.key, params: { id: projectId }, body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.code).toBe("VALIDATION_ERROR");
    }
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
      const res = await h.call("getCompetitorSuggestions", { key: t.key, params: { id: projectId }, query });
      expect(res.statusCode, JSON.stringify(query)).toBe(400);
      expect(res.json().error.code).toBe("VALIDATION_ERROR");
    }
  });

  it("is scoped: another workspace's project is 404 for both routes", async () => {
    const other = await h.tenant("agency");
    const read = await h.call("getCompetitorSuggestions", { key: other.key, params: { id: projectId } });
    expect(read.statusCode).toBe(404);
    expect(read.json().error.code).toBe("NOT_FOUND");
    const track = await h.call("trackCompetitor", {
      key: other.key,
      params: { id: projectId },
      body: { name: "Nimble" },
    });
    expect(track.statusCode).toBe(404);
    expect(track.json().error.code).toBe("NOT_FOUND");
  });

  it("reads an indexed range of the project's results", async () => {
    const plan = await planInUse(
      h,
      t,
      projectId,
      (explain) =>
        sql`${explain} SELECT id, engine, text, created_at FROM results WHERE workspace_id = ${t.workspace.id} AND project_id = ${projectId} AND created_at >= ${"2026-01-01T00:00:00.000Z"} AND created_at < ${"2027-01-01T00:00:00.000Z"} AND status = 'succeeded'`,
    );
    // The (workspace, brand, created_at) index: the table's on SQLite, each month partition's on PostgreSQL.
    expect(plan).toMatch(/results_project_created|results_\d{4}_\d{2}_workspace_id_project_id_created_at_id_idx/);
    expect(plan).not.toMatch(/Seq Scan on results_\d{4}/);
  });
});

describeEachDialect("competitor discovery end to end with the sandbox", (h) => {
  it("suggests a brand the sandbox names once the project stops tracking it, and tracks it again in one call", async () => {
    await h.startWorker();
    const t = await h.tenant("agency");
    const body = {
      ...brand,
      exclusions: [],
      prompts: ["best CRM for a small agency", "CRM with a good Slack integration", "cheapest CRM"],
    };
    const projectId = (await h.call("createProject", { key: t.key, body })).json().id;
    const res = await h.call("analyze", {
      key: t.key,
      body: { project_id: projectId, engines: ["sandbox"], samples: 10, wait: 60 },
    });
    expect(res.statusCode, res.body).toBe(200);
    // While Pipedrive is tracked it is never suggested; the sandbox's simulated market names a few
    // brands the project does not track (the same ones in every answer), and those are.
    const before = await h.call("getCompetitorSuggestions", { key: t.key, params: { id: projectId } });
    const rivals = simulatedRivals(brand.name, ["Acme CRM", "Acme", "HubSpot", "Pipedrive"]);
    const beforeNames = before.json().data.map((s: Suggestion) => s.name);
    expect(beforeNames.length).toBeGreaterThan(0);
    for (const name of beforeNames) expect(rivals).toContain(name);
    expect(before.json().scanned).toBe(30);
    const patch = await h.call("updateProject", {
      key: t.key,
      params: { id: projectId },
      body: { competitors: [{ name: "HubSpot", domains: ["hubspot.com"] }] },
    });
    expect(patch.statusCode, patch.body).toBe(200);
    const after = (await h.call("getCompetitorSuggestions", { key: t.key, params: { id: projectId } })).json();
    const pipedrive = after.data.find((s: Suggestion) => s.name === "Pipedrive");
    expect(pipedrive, JSON.stringify(after.data)).toBeDefined();
    expect(pipedrive.answers).toBeGreaterThanOrEqual(2);
    expect(pipedrive.engines).toEqual({ sandbox: pipedrive.answers });
    expect(pipedrive.visibility).toEqual(proportion(pipedrive.answers, 30));
    const results = (await h.call("listResults", { key: t.key, query: { project_id: projectId, limit: 100 } })).json()
      .data;
    const naming = results
      .filter((r: { text: string }) => r.text.includes("Pipedrive"))
      .map((r: { id: string }) => r.id);
    expect(pipedrive.answers).toBeLessThanOrEqual(naming.length);
    for (const id of pipedrive.examples) expect(naming).toContain(id);
    const track = await h.call("trackCompetitor", {
      key: t.key,
      params: { id: projectId },
      body: { name: "Pipedrive", domains: ["pipedrive.com"] },
    });
    expect(track.statusCode, track.body).toBe(200);
    const again = (await h.call("getCompetitorSuggestions", { key: t.key, params: { id: projectId } })).json();
    expect(again.data.map((s: Suggestion) => s.name)).toEqual(beforeNames);
  });
});
