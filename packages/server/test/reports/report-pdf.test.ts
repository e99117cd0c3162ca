import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { getDocument, OPS } from "pdfjs-dist/legacy/build/pdf.mjs";
import { beforeAll, expect, it } from "vitest";
import { describeEachDialect, type Tenant } from "../helpers/harness.ts";

const brand = {
  name: "Acme CRM",
  aliases: ["Acme"],
  primary_domain: "acmecrm.com",
  competitors: [
    { name: "HubSpot", domains: ["hubspot.com"] },
    { name: "Pipedrive", domains: ["pipedrive.com"] },
  ],
  prompts: ["best CRM for a small agency", "CRM with a good Slack integration", "CRM für kleine Agenturen"],
};

/** Every page's text, and how many filled or stroked paths its drawing has (the charts' bars and lines). */
async function readPdf(bytes: Uint8Array): Promise<{ pages: number; text: string; paths: number; title: unknown }> {
  const fonts = `${join(dirname(createRequire(import.meta.url).resolve("pdfjs-dist/package.json")), "standard_fonts")}/`;
  const pdf = await getDocument({ data: bytes, isEvalSupported: false, standardFontDataUrl: fonts }).promise;
  let text = "";
  let paths = 0;
  for (let n = 1; n <= pdf.numPages; n++) {
    const page = await pdf.getPage(n);
    const content = await page.getTextContent();
    text += `${content.items.map((item) => ("str" in item ? item.str : "")).join(" ")}\n`;
    const ops = await page.getOperatorList();
    paths += ops.fnArray.filter((op) => op === OPS.fill || op === OPS.stroke || op === OPS.eoFill).length;
  }
  const { info } = await pdf.getMetadata();
  const pages = pdf.numPages;
  await pdf.destroy();
  return { pages, text, paths, title: (info as { Title?: unknown }).Title };
}

describeEachDialect("a report as a PDF", (h) => {
  let t: Tenant;
  let report: {
    id: string;
    title: string;
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
    expect(res.headers["content-disposition"]).toBe(`inline; filename="${report.id}.pdf"`);
    expect(res.rawPayload.subarray(0, 5).toString("latin1")).toBe("%PDF-");

    const pdf = await readPdf(new Uint8Array(res.rawPayload));
    expect(pdf.title).toBe(report.title);
    expect(pdf.pages).toBeGreaterThanOrEqual(1);
    const text = pdf.text.replace(/\s+/g, " ");
    const overall = report.data.summary.overall;
    expect(text).toContain(report.title);
    expect(text).toContain(`${(overall.visibility.value * 100).toFixed(1)}%`);
    expect(text).toContain(`${(overall.share_of_voice * 100).toFixed(1)}%`);
    expect(text).toContain(`${overall.answers} answers`);
    for (const name of ["Acme CRM", "HubSpot", "Pipedrive", "sandbox", "sandbox_web"]) expect(text).toContain(name);
    for (const section of ["Over time", "Against competitors", "By engine", "API vs web", "Sources", "Alerts"])
      expect(text).toContain(section);
    // Latin-1 text prints as it is (the German prompt is not in the figures, but its engine table is).
    expect(text).not.toContain("undefined");
    // Bars, lines, dots and rules: far more than the tiles' frames alone.
    expect(pdf.paths).toBeGreaterThan(30);
  });

  it("says what the citation rate counts: answers, not citations", async () => {
    const res = await h.call("getReport", { key: t.key, params: { id: report.id }, query: { format: "html" } });
    expect(res.statusCode).toBe(200);
    const overall = report.data.summary.overall as unknown as {
      citations: number;
      brand_citations: number;
      citation_share: number;
    };
    const text = res.body
      .replace(/<[^>]+>/g, " ")
      .replace(/&#39;/g, "'")
      .replace(/\s+/g, " ");
    const share = `${(overall.citation_share * 100).toFixed(1)}%`;
    expect(text).toContain(
      `of the answers citing sources; ${overall.brand_citations} of ${overall.citations} citations are the brand's (${share})`,
    );
  });

  it("is refused for another workspace's report, like every format", async () => {
    const other = await h.tenant("agency");
    const res = await h.call("getReport", { key: other.key, params: { id: report.id }, query: { format: "pdf" } });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe("NOT_FOUND");
  });
});
