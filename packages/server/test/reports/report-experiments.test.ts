import { afterAll, beforeAll, expect, it } from "vitest";
import { defaultEngineConfig } from "../../src/config/engines.ts";
import { toJson } from "../../src/lib/json.ts";
import { points } from "../../src/services/glossary/format.ts";
import { describeEachDialect, type Harness, type Tenant } from "../helpers/harness.ts";
import { readPdf } from "../helpers/pdf.ts";
import { ScriptedVendor } from "../helpers/scripted-vendor.ts";

const DAY = 86_400_000;

/**
 * Whether each prompt's answer names the brand, round by round: four rounds before the change
 * (days 0, 2, 4, 6), four after it (days 8, 12, 16, 20; the change is made on day 7). The treated
 * prompts gain about half the answers after it, the controls move by a quarter either way or not
 * at all; before it, both sides are as flat as each other (no pre-trend).
 */
const TREATED: Record<string, number[]> = {
  "best CRM for agencies?": [0, 1, 1, 0, 1, 1, 1, 1],
  "CRM with a client portal?": [0, 1, 0, 0, 1, 1, 1, 0],
  "CRM for consultants?": [0, 0, 0, 0, 1, 1, 1, 0],
  "agency CRM pricing?": [1, 0, 0, 1, 1, 1, 1, 1],
};
const CONTROL: Record<string, number[]> = {
  "what is a CRM?": [1, 1, 0, 1, 1, 0, 1, 1],
  "how to clean contact data?": [0, 0, 0, 0, 0, 0, 0, 1],
  "email marketing tools?": [1, 1, 1, 1, 1, 1, 0, 1],
  "sales forecasting tips?": [0, 1, 1, 0, 0, 1, 1, 0],
};
const ROUND_DAYS = [0, 2, 4, 6, 8, 12, 16, 20];
const CHANGE_DAY = 7;
const BEFORE = 4;

/** The difference in differences by its definition: each prompt's share after minus before, treated mean minus control mean. */
function expectedEffect(): number {
  const share = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const change = (xs: number[]) => share(xs.slice(BEFORE)) - share(xs.slice(0, BEFORE));
  const mean = (side: Record<string, number[]>) => share(Object.values(side).map(change));
  return mean(TREATED) - mean(CONTROL);
}

/** The page's text, as a reader sees it. */
const pageText = (html: string) =>
  html
    .replace(/<style>[\s\S]*?<\/style>/, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");

/** pdf.js may cut a line anywhere a wrap falls: compared without white space. */
const squeeze = (text: string) => text.replace(/\s/g, "");

const NOTE = "The brand's changes whose result was ready by the end of this period";

interface Report {
  id: string;
  analysis_id: string | null;
  data: { experiments?: Record<string, unknown>[] };
}

describeEachDialect(
  "a report's finished experiments (issue 27)",
  (h: Harness) => {
    let t: Tenant;
    const engine = new ScriptedVendor();

    beforeAll(async () => {
      await engine.start(h);
      await h.startWorker();
      t = await h.tenant("agency");
    });
    afterAll(async () => {
      await engine.stop();
    });

    async function brand(name: string): Promise<string> {
      const created = await h.call("createProject", {
        key: t.key,
        body: {
          name: "Acme CRM",
          primary_domain: `${name}.example`,
          competitors: [{ name: "HubSpot" }],
          engines: ["scripted"],
          prompts: [...Object.keys(TREATED), ...Object.keys(CONTROL)],
        },
      });
      expect(created.statusCode, created.body).toBe(201);
      return created.json().id;
    }

    /** One finished analysis of some prompts, every answer naming the brand or none; its id. */
    async function analyse(projectId: string, prompts: string[], mention: boolean, attempt = 1): Promise<string> {
      engine.mentionBrand = mention;
      const res = await h.call("analyze", {
        key: t.key,
        body: { project_id: projectId, engines: ["scripted"], prompts, samples: 1, wait: 30 },
      });
      expect(res.statusCode, res.body).toBe(200);
      // Each prompt's answers must be the table's: one lost would move its share. A connection to
      // the local fake dropped under load fails its answer for good (the SDK's "Connection error."
      // is not taken as retryable), so those prompts are asked again, at the same moment.
      const lost = (res.json().summary.by_prompt as { prompt: string; summary: { answers: number } }[])
        .filter((p) => p.summary.answers === 0)
        .map((p) => p.prompt);
      if (lost.length === 0) return res.json().id;
      expect(attempt, res.body).toBeLessThan(3);
      return analyse(projectId, lost, mention, attempt + 1);
    }

    /** Each prompt asked once in round `round`, as the table says; the analyses' ids. */
    async function round(projectId: string, index: number): Promise<string[]> {
      const all = { ...TREATED, ...CONTROL };
      const naming = Object.keys(all).filter((p) => all[p]?.[index] === 1);
      const silent = Object.keys(all).filter((p) => all[p]?.[index] === 0);
      const ids: string[] = [];
      if (naming.length > 0) ids.push(await analyse(projectId, naming, true));
      if (silent.length > 0) ids.push(await analyse(projectId, silent, false));
      return ids;
    }

    const reportOf = async (projectId: string, analysisId: string): Promise<Report> => {
      const listed = (await h.call("listReports", { key: t.key, query: { project_id: projectId, limit: 100 } })).json()
        .data as Report[];
      const summary = listed.find((r) => r.analysis_id === analysisId);
      if (summary === undefined) throw new Error(`no report of ${analysisId}`);
      const res = await h.call("getReport", { key: t.key, params: { id: summary.id } });
      expect(res.statusCode).toBe(200);
      return res.json();
    };
    const html = async (id: string) => {
      const res = await h.call("getReport", { key: t.key, params: { id }, query: { format: "html" } });
      expect(res.statusCode).toBe(200);
      return pageText(res.body);
    };
    const pdf = async (id: string) => {
      const res = await h.call("getReport", { key: t.key, params: { id }, query: { format: "pdf" } });
      expect(res.statusCode).toBe(200);
      return (await readPdf(new Uint8Array(res.rawPayload))).text.replace(/\s+/g, " ");
    };

    it("carries a change's result, with the figures the experiment gives, once the worker has called it, in the JSON, the page and the PDF", async () => {
      const projectId = await brand("acme-experiment");
      const start = h.clock.now().getTime();
      for (let i = 0; i < BEFORE; i++) {
        h.clock.set(start + (ROUND_DAYS[i] ?? 0) * DAY);
        await round(projectId, i);
      }
      h.clock.set(start + CHANGE_DAY * DAY);
      const created = await h.call("createChange", {
        key: t.key,
        params: { id: projectId },
        body: {
          title: "Agency pages rewritten",
          prompts: Object.keys(TREATED),
          control_prompts: Object.keys(CONTROL),
          engines: ["scripted"],
        },
      });
      expect(created.statusCode, created.body).toBe(201);
      const changeId: string = created.json().id;
      let last = "";
      for (let i = BEFORE; i < ROUND_DAYS.length; i++) {
        h.clock.set(start + (ROUND_DAYS[i] ?? 0) * DAY);
        last = (await round(projectId, i)).at(-1) ?? last;
      }
      // Still collecting after the last round: its report has no section.
      const collecting = await reportOf(projectId, last);
      expect(collecting.data).not.toHaveProperty("experiments");

      // The window closes 28 days after the change: the next analysis's hook calls the result.
      h.clock.set(start + (CHANGE_DAY + 29) * DAY);
      const closing = await analyse(projectId, Object.keys(CONTROL).slice(0, 1), false);
      const change = (await h.call("getChange", { key: t.key, params: { id: projectId, change_id: changeId } })).json();
      expect(change.result_at).toBe(new Date(start + (CHANGE_DAY + 29) * DAY).toISOString());
      expect(change.status).toBe("result");
      expect(change.visibility.overall.effect).toBeCloseTo(expectedEffect(), 4);
      expect(change.pre_trend?.diverging).toBe(false);

      const report = await reportOf(projectId, closing);
      const overall = change.visibility.overall;
      expect(report.data.experiments).toEqual([
        {
          id: changeId,
          title: "Agency pages rewritten",
          changed_at: change.changed_at,
          result_at: change.result_at,
          status: "result",
          summary: change.summary,
          effect: overall.effect,
          ci_low: overall.ci_low,
          ci_high: overall.ci_high,
          p_value: overall.p_value,
          treated_prompts: 4,
          control_prompts: 4,
          answers: 8 * ROUND_DAYS.length,
          pre_trend_diverging: false,
          engines: ["scripted"],
        },
      ]);
      expect(overall.p_value).toBeLessThan(0.05);
      expect(overall.ci_low).toBeGreaterThan(0);

      const effectLine = `Effect on visibility: ${points(overall.effect)} (95% interval ${points(overall.ci_low).replace(/ pts$/, "")} to ${points(overall.ci_high)}), p = ${overall.p_value.toFixed(3)}, from 4 treated prompts against 4 control prompts, 64 answers.`;
      const changedOn = new Intl.DateTimeFormat("en-GB", {
        day: "numeric",
        month: "short",
        year: "numeric",
        timeZone: "UTC",
      }).format(new Date(change.changed_at));
      const sentences = [NOTE, "Agency pages rewritten", `Changed ${changedOn} · Result`, change.summary, effectLine];
      const page = await html(report.id);
      expect(page).toContain(" Experiments ");
      for (const sentence of sentences) expect(page).toContain(sentence);
      // After the opportunities, before the sources.
      expect(page.indexOf("Opportunities")).toBeLessThan(page.indexOf(NOTE));
      expect(page.indexOf(NOTE)).toBeLessThan(page.indexOf(" Sources "));
      expect(page).not.toMatch(/undefined|NaN/);
      const text = squeeze(await pdf(report.id));
      expect(text).toContain("Experiments");
      for (const sentence of sentences) expect(text).toContain(squeeze(sentence));
      expect(text).not.toMatch(/undefined|NaN/);

      // A later report still carries it, with the same frozen figures.
      h.clock.advance(DAY);
      const later = await reportOf(projectId, await analyse(projectId, Object.keys(CONTROL).slice(0, 1), true));
      expect(later.data.experiments).toEqual(report.data.experiments);

      // As generated before issue 27: the same data without the field still reads and renders.
      const { experiments: _, ...older } = report.data;
      await h.deps.db
        .updateTable("reports")
        .set({ data: toJson(older) })
        .where("workspace_id", "=", t.workspace.id)
        .where("id", "=", report.id)
        .execute();
      expect((await reportOf(projectId, closing)).data).not.toHaveProperty("experiments");
      expect(await html(report.id)).not.toContain(NOTE);
      expect(await pdf(report.id)).not.toContain(NOTE);
    });

    it("has no section for a brand without a finished experiment", async () => {
      const none = await brand("initech");
      const plain = await reportOf(none, await analyse(none, Object.keys(TREATED), true));
      expect(plain.data).not.toHaveProperty("experiments");
      expect(await html(plain.id)).not.toContain(NOTE);
      expect(await pdf(plain.id)).not.toContain(NOTE);

      // A change still collecting is not a finished experiment.
      const pending = await brand("globex");
      const created = await h.call("createChange", {
        key: t.key,
        params: { id: pending },
        body: { title: "New pricing page", prompts: Object.keys(TREATED) },
      });
      expect(created.statusCode, created.body).toBe(201);
      h.clock.advance(DAY);
      const report = await reportOf(pending, await analyse(pending, Object.keys(TREATED), true));
      expect(report.data).not.toHaveProperty("experiments");
    });
  },
  {
    // The scripted engine is a custom one: its address is replaced by the local fake's when it starts.
    config: {
      engines: {
        ...defaultEngineConfig(),
        custom: [{ name: "scripted", baseUrl: "http://127.0.0.1:9", model: "scripted-1", apiKey: null }],
      },
    },
  },
);
