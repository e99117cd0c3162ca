import { beforeAll, describe, expect, it } from "vitest";
import { points as formatPoints } from "../../src/services/glossary/format.ts";
import { proportion, testDifference } from "../../src/services/measurement/aggregate.ts";
import { describeEachDialect, type Tenant } from "../helpers/harness.ts";

const brand = {
  name: "Acme CRM",
  aliases: ["Acme"],
  primary_domain: "acmecrm.com",
  competitors: [
    { name: "HubSpot", domains: ["hubspot.com"] },
    { name: "Pipedrive", domains: ["pipedrive.com"] },
    { name: "Zoho CRM", domains: ["zoho.com"] },
  ],
  prompts: [
    "best CRM for a small agency",
    "CRM with a good Slack integration",
    "cheapest CRM for startups",
    "CRM that is easy to set up",
    "which CRM has the best mobile app",
    "CRM for real estate agents",
    "CRM with email marketing built in",
    "best CRM for a sales team of ten",
    "CRM that works well with Gmail",
    "open source CRM alternatives",
  ],
};

describe("the API-vs-web test of two visibilities", () => {
  it("is the pooled two-proportion z-test, two-sided", () => {
    // 45 of 100 against 30 of 100: z = 2.191, p = 0.0285 (worked by hand).
    expect(testDifference(proportion(45, 100), proportion(30, 100))).toEqual({
      difference: -0.15,
      p_value: 0.0285,
      significant: true,
    });
    // 12 of 40 against 15 of 40: z = 0.710, p = 0.478.
    const close = testDifference(proportion(12, 40), proportion(15, 40));
    expect(close.difference).toBe(0.075);
    expect(close.p_value).toBeCloseTo(0.478, 3);
    expect(close.significant).toBe(false);
  });

  it("says nothing without answers, and no difference when both are all or nothing", () => {
    expect(testDifference(proportion(0, 0), proportion(3, 10))).toEqual({
      difference: null,
      p_value: null,
      significant: false,
    });
    expect(testDifference(proportion(10, 10), proportion(20, 20))).toEqual({
      difference: 0,
      p_value: 1,
      significant: false,
    });
  });
});

describeEachDialect("an analysis on both surfaces (sandbox and sandbox_web)", (h) => {
  let t: Tenant;
  let projectId: string;
  let analysis: {
    id: string;
    summary: {
      by_engine: Record<string, { visibility: { value: number; count: number; n: number } }>;
      surfaces: {
        api_engine: string;
        web_engine: string;
        api: { value: number; n: number; count: number };
        web: { value: number; n: number; count: number };
        difference: number;
        p_value: number;
        significant: boolean;
      }[];
    };
  };

  beforeAll(async () => {
    await h.startWorker();
    t = await h.tenant("agency");
    projectId = (await h.call("createProject", { key: t.key, body: brand })).json().id;
    const res = await h.call("analyze", {
      key: t.key,
      body: { project_id: projectId, engines: ["sandbox", "sandbox_web"], samples: 10, wait: 60 },
    });
    expect(res.statusCode, res.body).toBe(200);
    analysis = res.json();
  });

  it("compares the brand's visibility on each surface, with a significance test", () => {
    const { surfaces, by_engine } = analysis.summary;
    expect(surfaces).toHaveLength(1);
    const [pair] = surfaces;
    expect(pair).toMatchObject({ api_engine: "sandbox", web_engine: "sandbox_web" });
    // The figures are the per-engine ones, and the test is recomputed here from them.
    expect(pair?.api).toEqual(by_engine.sandbox?.visibility);
    expect(pair?.web).toEqual(by_engine.sandbox_web?.visibility);
    expect(pair?.api.n).toBe(100);
    expect(pair?.web.n).toBe(100);
    const expected = testDifference(proportion(pair?.api.count ?? 0, 100), proportion(pair?.web.count ?? 0, 100));
    expect(pair).toMatchObject(expected);
    // The sandbox names the brand in about 70% of its api answers and 25% of its web ones: at
    // n = 100 each, the test found that difference in 10,000 of 10,000 simulated seeds (each
    // analysis has its own seed).
    expect(pair?.difference).toBeLessThan(0);
    expect(pair?.significant, JSON.stringify(pair)).toBe(true);
    expect(pair?.p_value).toBeLessThan(0.05);
  });

  it("marks every result with its surface, its searches and each citation's category", async () => {
    const rows: { engine: string; surface: string; searches: string[]; citations: { category: string }[] }[] = [];
    let cursor: string | undefined;
    do {
      const page = (
        await h.call("listResults", {
          key: t.key,
          query: { analysis_id: analysis.id, limit: 100, ...(cursor === undefined ? {} : { cursor }) },
        })
      ).json();
      rows.push(...page.data);
      cursor = page.has_more ? page.next_cursor : undefined;
    } while (cursor !== undefined);
    expect(rows).toHaveLength(200);
    for (const row of rows) {
      expect(row.surface).toBe(row.engine === "sandbox_web" ? "web" : "api");
      expect(row.searches.length).toBeGreaterThan(0);
      for (const citation of row.citations)
        expect(["owned", "competitor", "social", "reference", "news", "review", "other"]).toContain(citation.category);
    }
    expect(rows.some((row) => row.citations.length > 0)).toBe(true);
  });

  it("shows the comparison in the analysis's report: JSON, HTML and CSV", async () => {
    const [report] = (
      await h.call("listReports", { key: t.key, query: { project_id: projectId, type: "analysis" } })
    ).json().data;
    expect(report.analysis_id).toBe(analysis.id);
    const full = (await h.call("getReport", { key: t.key, params: { id: report.id } })).json();
    expect(full.data.summary.surfaces).toEqual(analysis.summary.surfaces);

    const html = (await h.call("getReport", { key: t.key, params: { id: report.id }, query: { format: "html" } })).body;
    expect(html).toContain("<h2>API and as people see it</h2>");
    const pair = analysis.summary.surfaces[0];
    // In the glossary's format, as the dashboard prints it.
    expect(html).toContain(formatPoints(pair?.difference));
    expect(html).toMatch(/<td>Sandbox \(offline\) and Sandbox web \(offline\)<\/td>.*<td>Yes<\/td><\/tr>/);
    // Cited sites by kind: the sandbox cites review sites in every answer.
    expect(html).toContain("Cited sites by kind (answers citing each kind)");
    expect(html).toContain("Reviews &amp; marketplaces");

    const csv = (await h.call("getReport", { key: t.key, params: { id: report.id }, query: { format: "csv" } })).body;
    const [header, ...lines] = csv.trim().split("\r\n");
    const columns = header?.split(",") ?? [];
    expect(columns.slice(15, 17)).toEqual(["surface", "searches"]);
    expect(lines).toHaveLength(200);
    const engineAt = columns.indexOf("engine");
    for (const line of lines) {
      // Nothing before it holds a comma (prompts have none, lists are joined by ";"): the answer's
      // text, which may, comes after.
      const fields = line.split(",");
      const surface = fields[columns.indexOf("surface")];
      expect(surface).toBe(fields[engineAt] === "sandbox_web" ? "web" : "api");
    }
  });

  it("has no comparison when only one surface was asked", async () => {
    const res = await h.call("analyze", {
      key: t.key,
      body: { project_id: projectId, engines: ["sandbox_web"], samples: 1, wait: 30 },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().summary.surfaces).toEqual([]);
  });
});
