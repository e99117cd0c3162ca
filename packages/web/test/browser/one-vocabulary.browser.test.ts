import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Browser, Locator } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as f from "../../../server/src/services/glossary/format.ts";
import { GLOSSARY, type MetricId } from "../../../server/src/services/glossary/metrics.ts";
import { launchChromium, SCREENSHOTS, screenshot } from "../../../server/test/helpers/browser.ts";
import { DIALECTS } from "../../../server/test/helpers/databases.ts";
import { readPdf } from "../../../server/test/helpers/pdf.ts";
import { type SeededBrand, seedBrands } from "./brand-seed.ts";
import { appCall, type Installation, sessionPage, startInstallation } from "./installation.ts";

/**
 * Issue 24's acceptance, read where a person reads it: for one brand and period, every figure the
 * dashboard's Overview, an answer, the report (its HTML, its PDF's text through pdf.js, its CSV)
 * and the MCP metrics tool show is the same number, on the same scale, under the same name; and
 * each note's arithmetic holds ("x of y" is the figure it explains). The period is the seeded
 * brand's one analysis, so the Overview, the report and MCP all cover the same answers.
 */

interface Proportion {
  value: number | null;
  n: number;
  count: number;
  ci_low: number | null;
  ci_high: number | null;
}

interface Summary {
  answers: number;
  visibility: Proportion;
  share_of_voice: number | null;
  average_position: number | null;
  sentiment_score: number | null;
  citation_rate: number | null;
  citation_share: number | null;
  citations: number;
  brand_citations: number;
  visibility_score: number | null;
  competitors: { mentioned: number }[];
}

/** RFC 4180, as the report writes it: quoted fields, doubled quotes, CRLF. */
function parseCsv(text: string): Record<string, string>[] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(field);
      field = "";
    } else if (c === "\n") {
      row.push(field.replace(/\r$/, ""));
      rows.push(row);
      row = [];
      field = "";
    } else field += c;
  }
  const [head, ...body] = rows;
  return body.map((cells) => Object.fromEntries((head ?? []).map((name, i) => [name, cells[i] ?? ""])));
}

/** The text a person sees (a figure's hint, hidden for screen readers only, left out). */
// biome-ignore lint/performance/useDomNodeTextContent: Playwright's innerText, not the DOM's: the visible text is the point.
const seen = (locator: Locator) => locator.innerText();

const mean = (values: number[]) => (values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length);

describe.each(DIALECTS)("one vocabulary [%s]", (dialect) => {
  let browser: Browser;
  let installation: Installation;
  let seeded: SeededBrand;

  beforeAll(async () => {
    [browser, installation] = await Promise.all([launchChromium(), startInstallation(dialect)]);
    seeded = await seedBrands(installation, { brand: { analysis: true } }).brand;
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await installation?.stop();
    console.log(`screenshots in ${SCREENSHOTS}`);
  });

  const v1 = () => `/workspaces/${seeded.workspaceId}/v1`;
  const api = <T>(path: string) => appCall<T>(installation, seeded.session, "GET", `${v1()}${path}`);
  const raw = async (path: string) => {
    const response = await fetch(`${installation.base}/app/api${v1()}${path}`, {
      headers: {
        origin: installation.base,
        cookie: seeded.session.cookies.map((c) => `${c.name}=${c.value}`).join("; "),
      },
    });
    expect(response.status, path).toBe(200);
    return response;
  };

  it("shows each figure as one number on one scale under one name, on every surface", async () => {
    // The report of the brand's one analysis: the period every surface below covers.
    const [listed] = (await api<{ data: { id: string }[] }>(`/reports?project_id=${seeded.brandId}`)).data;
    if (listed === undefined) throw new Error("no report");
    const report = await api<{ title: string; data: { summary: { overall: Summary } } }>(`/reports/${listed.id}`);
    const s = report.data.summary.overall;
    const mentions = s.visibility.count + s.competitors.reduce((sum, c) => sum + c.mentioned, 0);
    expect(s.visibility.count).toBeGreaterThan(0);
    expect(s.citations).toBeGreaterThan(0);

    // The figures as people read them, by their glossary names. A share with its counts is one
    // division rounded once, as the report prints it beside its "x of y" (the stored fraction has 4
    // decimals: 2 of 52 is stored 0.0385, which would print 3.9%, while 2 ÷ 52 is 3.8%).
    const once = (part: number, whole: number, stored: number | null) => (whole === 0 ? stored : part / whole);
    const expected: Partial<Record<MetricId, string>> = {
      visibility: f.percent(once(s.visibility.count, s.visibility.n, s.visibility.value)),
      share_of_voice: f.percent(once(s.visibility.count, mentions, s.share_of_voice)),
      average_position: f.position(s.average_position),
      sentiment: f.sentiment(s.sentiment_score),
      citation_rate: f.percent(s.citation_rate),
      citation_share: f.percent(once(s.brand_citations, s.citations, s.citation_share)),
      visibility_score: f.score(s.visibility_score),
    };
    const named = (id: MetricId) => GLOSSARY[id].name;

    // The report's page: seven tiles, each under its glossary name, each note's arithmetic right.
    const html = await (await raw(`/reports/${listed.id}?format=html`)).text();
    const tiles = new Map(
      [...html.matchAll(/<div class="tile"><span>([^<]*)<\/span><b>([^<]*)<\/b><span>([^<]*)<\/span><\/div>/g)].map(
        (m) => [m[1] as string, { value: m[2] as string, note: (m[3] as string).replace(/&#39;/g, "'") }],
      ),
    );
    expect([...tiles.keys()]).toEqual(Object.keys(expected).map((id) => named(id as MetricId)));
    for (const [id, value] of Object.entries(expected)) expect(tiles.get(named(id as MetricId))?.value, id).toBe(value);
    const ofNote = (id: MetricId) => {
      const match = /^(\d+) of (\d+) /.exec(tiles.get(named(id))?.note ?? "");
      if (match === null) throw new Error(`${id}'s note says no "x of y": ${tiles.get(named(id))?.note}`);
      return f.percent(Number(match[1]) / Number(match[2]));
    };
    expect(ofNote("visibility")).toBe(expected.visibility);
    expect(tiles.get(named("visibility"))?.note).toContain(`${s.visibility.count} of ${s.visibility.n} answers`);
    expect(ofNote("share_of_voice")).toBe(expected.share_of_voice);
    expect(tiles.get(named("share_of_voice"))?.note).toContain(`of ${mentions} mentions`);
    expect(ofNote("citation_share")).toBe(expected.citation_share);
    expect(tiles.get(named("citation_share"))?.note).toContain(`${s.brand_citations} of ${s.citations} citations`);
    // The summary says the headline figure in the same words.
    expect(html).toContain(`was named in ${expected.visibility} of ${s.visibility.n} answers`);

    // The PDF: the same tiles, name then number, in its extracted text.
    const pdf = (
      await readPdf(new Uint8Array(await (await raw(`/reports/${listed.id}?format=pdf`)).arrayBuffer()))
    ).text.replace(/\s+/g, " ");
    for (const [id, value] of Object.entries(expected)) expect(pdf, id).toContain(`${named(id as MetricId)} ${value}`);
    expect(pdf).toContain(`${s.visibility.count} of ${s.visibility.n} answers name the brand`);

    // The CSV: every answer, from which each figure is recomputed: the same counts, and the same
    // means to the precision the API stores them at (4 decimals for a position, 2 on a 0–100 scale).
    const rows = parseCsv(await (await raw(`/reports/${listed.id}?format=csv`)).text());
    const ok = rows.filter((r) => r.status === "succeeded");
    expect(ok.every((r) => r.text !== "")).toBe(true);
    const mentioned = ok.filter((r) => r.mentioned === "true");
    expect([mentioned.length, ok.length]).toEqual([s.visibility.count, s.visibility.n]);
    const near = (value: number | null, stored: number | null, digits: number) => {
      if (value === null || stored === null) throw new Error("a figure is missing");
      expect(Math.abs(value - stored)).toBeLessThanOrEqual(0.5 * 10 ** -digits + 1e-9);
    };
    const polarities = mentioned.filter((r) => r.sentiment !== "").map((r) => Number(r.sentiment));
    for (const r of mentioned.filter((x) => x.sentiment !== ""))
      expect(Number(r.sentiment_score)).toBe(f.sentimentFromPolarity(Number(r.sentiment)));
    const polarity = mean(polarities);
    near(polarity === null ? null : 50 + 50 * polarity, s.sentiment_score, 2);
    near(mean(ok.map((r) => Number(r.score))), s.visibility_score, 2);
    near(mean(mentioned.filter((r) => r.position !== "").map((r) => Number(r.position))), s.average_position, 4);
    const citations = ok.reduce((sum, r) => sum + Number(r.citations), 0);
    const own = ok.reduce((sum, r) => sum + Number(r.brand_citations), 0);
    expect([own, citations]).toEqual([s.brand_citations, s.citations]);

    // The Overview: its five tiles, under the same names, with the same numbers.
    const { page, problems } = await sessionPage(browser, installation, seeded.session, {
      locale: "en-US",
      reducedMotion: "reduce",
      viewport: { width: 1280, height: 900 },
    });
    await page.goto(`${installation.base}/w/${seeded.workspaceId}/brands/${seeded.brandId}`);
    const overview = ["visibility", "share_of_voice", "average_position", "sentiment", "citation_rate"] as const;
    for (const id of overview) {
      const tile = page.locator("dl > div").filter({ has: page.getByRole("button", { name: `About ${named(id)}` }) });
      await tile.first().waitFor();
      expect(await seen(tile.locator("dt")), id).toBe(named(id));
      expect(await seen(tile.locator("dd span").first()), id).toBe(expected[id]);
    }
    await screenshot(page, `one-vocabulary-${dialect}-overview-1280`);

    // One answer: its sentiment on the 0–100 scale, the same number as its CSV line.
    const answer = rows.find((r) => r.result_id === seeded.answerId);
    if (answer === undefined || answer.sentiment === "") throw new Error("the seeded answer has no sentiment");
    await page.goto(`${installation.base}/w/${seeded.workspaceId}/brands/${seeded.brandId}/answers/${seeded.answerId}`);
    const measured = page.locator('section[aria-labelledby="measure-title"]');
    await measured.waitFor();
    const fact = (name: string) => measured.locator("dl > div").filter({ has: page.getByText(name, { exact: true }) });
    expect(await seen(fact(named("sentiment")).locator("dd"))).toBe(f.sentimentWord(Number(answer.sentiment)));
    expect(await seen(fact(named("sentiment")).locator("dd"))).toContain(
      `(${f.sentiment(Number(answer.sentiment_score))})`,
    );
    expect(await seen(fact(named("visibility_score")).locator("dd"))).toBe(f.score(Number(answer.score)));
    await screenshot(page, `one-vocabulary-${dialect}-answer-1280`);
    expect(problems).toEqual([]);

    // MCP: get_metrics' text for people, the same names and numbers.
    const key = await appCall<{ key: string }>(
      installation,
      seeded.session,
      "POST",
      `/workspaces/${seeded.workspaceId}/api-keys`,
      { name: "assistant", scopes: ["read"] },
    );
    installation.secrets.push(key.key);
    const client = new Client({ name: "one-vocabulary", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL("/mcp", installation.base), {
        requestInit: { headers: { authorization: `Bearer ${key.key}` } },
      }),
    );
    try {
      const result = (await client.callTool({
        name: "get_metrics",
        arguments: { project_id: seeded.brandId },
      })) as CallToolResult;
      const text = result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
      expect(text).toContain(`- ${named("visibility")}: ${expected.visibility} (`);
      expect(text).toContain(`- ${named("share_of_voice")}: ${expected.share_of_voice};`);
      expect(text).toContain(`- ${named("average_position")}: ${expected.average_position};`);
      expect(text).toContain(`- ${named("sentiment")}: ${expected.sentiment};`);
      expect(text).toContain(`- ${named("citation_rate")}: ${expected.citation_rate} (`);
      expect(text).toContain(`- ${named("visibility_score")}: ${expected.visibility_score};`);
    } finally {
      await client.close();
    }
  }, 120_000);
});
