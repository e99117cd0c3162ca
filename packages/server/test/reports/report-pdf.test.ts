import { beforeAll, expect, it } from "vitest";
import { percent as formatPercent } from "../../src/services/glossary/format.ts";
import { describeEachDialect, type Tenant } from "../helpers/harness.ts";
import { readPdf } from "../helpers/pdf.ts";

const brand = {
  name: "Acme CRM",
  aliases: ["Acme"],
  primary_domain: "acmecrm.com",
  competitors: [
    { name: "HubSpot", domains: ["hubspot.com"] },
    { name: "Pipedrive", domains: ["pipedrive.com"] },
  ],
  prompts: [
    "best CRM for a small agency",
    "CRM with a good Slack integration",
    "CRM für kleine Agenturen",
    "小規模な代理店に最適なCRMは？",
  ],
};

/** The glossary's formatter: the report prints shares as the dashboard does. */
const percent = (v: number) => formatPercent(v);

describeEachDialect("a report as a PDF", (h) => {
  let t: Tenant;
  let report: {
    id: string;
    title: string;
    project_id: string;
    data: { summary: { overall: { visibility: { value: number }; share_of_voice: number; answers: number } } };
  };

  beforeAll(async () => {
    await h.startWorker();
    t = await h.tenant("agency");
    const projectId = (await h.call("createProject", { key: t.key, body: brand })).json().id;
    const res = await h.call("analyze", {
      key: t.key,
      body: { project_id: projectId, engines: ["sandbox", "sandbox_web"], samples: 3, wait: 30 },
    });
    expect(res.statusCode, res.body).toBe(200);
    const [listed] = (await h.call("listReports", { key: t.key, query: { project_id: projectId } })).json().data;
    report = (await h.call("getReport", { key: t.key, params: { id: listed.id } })).json();
  });

  it("opens, and holds the report's title, figures, brands, engines and charts", async () => {
    const res = await h.call("getReport", { key: t.key, params: { id: report.id }, query: { format: "pdf" } });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("application/pdf");
    // The file is named by the title in words, never by an id.
    const disposition = String(res.headers["content-disposition"]);
    expect(disposition).toMatch(
      /^inline; filename="Acme CRM - AI visibility on \d{1,2} \w{3} \d{4}, \d{4} UTC - .+\.pdf"/,
    );
    expect(disposition).not.toContain(report.id);
    expect(disposition).toContain("Sandbox (offline) and Sandbox web (offline).pdf");
    expect(res.rawPayload.subarray(0, 5).toString("latin1")).toBe("%PDF-");

    const pdf = await readPdf(new Uint8Array(res.rawPayload));
    expect(pdf.title).toBe(report.title);
    expect(pdf.pages).toBeGreaterThanOrEqual(1);
    const text = pdf.text.replace(/\s+/g, " ");
    const overall = report.data.summary.overall;
    expect(text).toContain(report.title);
    expect(text).toContain(percent(overall.visibility.value));
    expect(text).toContain(percent(overall.share_of_voice));
    expect(text).toContain(`${overall.answers} answers`);
    for (const name of ["Acme CRM", "HubSpot", "Pipedrive", "Sandbox (offline)", "Sandbox web (offline)"])
      expect(text).toContain(name);
    for (const section of [
      "Summary",
      "Recommended next step",
      "The figures",
      "Against the previous period",
      "By engine",
      "By prompt",
      "API and as people see it",
      "Over time",
      "Against competitors",
      "Opportunities",
      "Sources",
      "Alerts",
    ])
      expect(text).toContain(section);
    // The Japanese prompt prints as Japanese (an embedded font covers it), the German one as German.
    // (pdf.js puts a space where a table cell's line wraps.)
    expect(text.replace(/\s/g, "")).toContain("小規模な代理店に最適なCRMは？");
    expect(text).toContain("CRM für kleine Agenturen");
    expect(text).not.toContain("undefined");
    // People read names: no engine id, surface id or object id anywhere in the text.
    expect(text).not.toMatch(/\bsandbox(_web)?\b|\b(rpt|ana|res|prj|ws)_[A-Za-z0-9]{6,}|\b(api|web) \d/);
    expect(text).toContain("Web (as people see it)");
    // Bars, lines, dots and rules: far more than the tiles' frames alone.
    expect(pdf.paths).toBeGreaterThan(30);
  });

  it("says what the citation rate and the citation share count: answers, then citations", async () => {
    const res = await h.call("getReport", { key: t.key, params: { id: report.id }, query: { format: "html" } });
    expect(res.statusCode).toBe(200);
    const overall = report.data.summary.overall as unknown as {
      citations: number;
      brand_citations: number;
      citation_share: number;
    };
    const text = res.body
      .replace(/<style>[\s\S]*?<\/style>/, " ")
      .replace(/<[^>]+>/g, " ")
      .replace(/&#39;/g, "'")
      .replace(/\s+/g, " ");
    expect(text).toContain("Citation rate");
    expect(text).toContain("of the answers citing sources cite the brand's site");
    expect(text).toContain(
      `Citation share ${percent(overall.brand_citations / overall.citations)} ${overall.brand_citations} of ${overall.citations} citations point at the brand's site`,
    );
    // People read names: no engine id, surface id or object id in the page's text.
    expect(text).not.toMatch(/\bsandbox(_web)?\b|\b(rpt|ana|res|prj|ws)_[A-Za-z0-9]{6,}|\b(api|web) \d/);
    expect(text).toContain("Sandbox web (offline)");
  });

  it("gives two reports of one brand and day different titles", async () => {
    const again = await h.call("analyze", {
      key: t.key,
      body: { project_id: report.project_id, engines: ["sandbox", "sandbox_web"], samples: 1, wait: 30 },
    });
    expect(again.statusCode, again.body).toBe(200);
    const listed: { id: string; title: string }[] = (
      await h.call("listReports", { key: t.key, query: { project_id: report.project_id } })
    ).json().data;
    const titles = listed.map((r) => r.title);
    expect(titles).toHaveLength(2);
    expect(new Set(titles).size).toBe(2);
    // The second compares itself with the first.
    const latest = listed.find((r) => r.id !== report.id);
    if (latest === undefined) throw new Error("no second report");
    const second = (await h.call("getReport", { key: t.key, params: { id: latest.id } })).json();
    expect(second.data.previous.overall.answers).toBe(report.data.summary.overall.answers);
  });

  it("is refused for another workspace's report, like every format", async () => {
    const other = await h.tenant("agency");
    const res = await h.call("getReport", { key: other.key, params: { id: report.id }, query: { format: "pdf" } });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe("NOT_FOUND");
  });
});
