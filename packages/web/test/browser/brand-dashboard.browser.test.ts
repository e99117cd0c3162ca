import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { WEB_ROOT } from "../../../server/src/http/web.ts";
import { expectAccessible, launchChromium, SCREENSHOTS, screenshot } from "../../../server/test/helpers/browser.ts";
import { DIALECTS } from "../../../server/test/helpers/databases.ts";
import {
  ANSWERS,
  BRAND,
  type BrandSeed,
  competitorBody,
  OWNER,
  SAMPLES,
  type SeededBrand,
  seedBrands,
} from "./brand-seed.ts";
import {
  type Installation,
  openPage,
  type SignedInPage,
  sessionPage,
  startInstallation,
  withSession,
} from "./installation.ts";
import { expectNoSidewaysScroll } from "./screens.ts";

const WIDTHS = [1280, 390] as const;
/** Every module of the app's build, which a test's browser context loads before the test takes it. */
const APP_CODE = readdirSync(join(WEB_ROOT, "assets"))
  .filter((name) => name.endsWith(".js"))
  .map((name) => `/assets/${name}`);
const ENV = {
  // Slow enough that the analysis is seen running before it completes.
  SIGHTLINE_SANDBOX_LATENCY_MS: "1500",
  // Priced, so that the analysis and Settings have vendor costs to show (the sandbox is free by default).
  SIGHTLINE_ENGINE_PRICES: JSON.stringify({
    sandbox: { input_per_million: 2, output_per_million: 8, per_search: 0.001, per_request: 0.0005 },
  }),
};
const DESK = {
  viewport: { width: 1280, height: 900 },
  locale: "en-US",
  acceptDownloads: true,
  // Toasts appear and fade without transitions, so that axe never reads one half-faded.
  reducedMotion: "reduce",
} as const;
const ANALYSED = { analysis: true } as const;
/** What each test starts from, besides the brand, in a workspace of its own (brand-seed.ts). */
const SEEDS = {
  analyse: {},
  costs: ANALYSED,
  overview: ANALYSED,
  heatmap: ANALYSED,
  monitoring: {},
  // The analysis's report, and a monitoring run's with fewer answers.
  reports: { ...ANALYSED, monitoring: { samples: 1, alertRules: [] } },
  sources: ANALYSED,
  edit: {},
  facts: {},
  suggestions: ANALYSED,
  prompts: ANALYSED,
  // Every screen filled: the fact sheet, and a schedule whose run fired an alert (visibility below
  // 99% stays quiet only if all 30 answers name the brand, 0.7^30).
  screens: {
    ...ANALYSED,
    facts: true,
    monitoring: {
      samples: 6,
      alertRules: [
        { type: "visibility_drop", points: 10 },
        { type: "visibility_below", threshold: 0.99 },
      ],
    },
  },
} satisfies Record<string, BrandSeed>;
type Seeded = keyof typeof SEEDS;

/**
 * Painted marks of a chart: SVG shapes with an area (or a stroked length) that are not its grid or
 * axes. A chart that renders its frame but no data has none.
 */
function chartMarks(card: Locator): Promise<number> {
  return card
    .locator("[role=img] svg")
    .first()
    .evaluate((svg) => {
      let count = 0;
      for (const el of svg.querySelectorAll("path, rect, circle, polyline")) {
        if (el.closest(".recharts-cartesian-grid, .recharts-cartesian-axis, .recharts-tooltip-cursor")) continue;
        const style = el.ownerDocument.defaultView?.getComputedStyle(el);
        if (!style || style.display === "none" || style.visibility === "hidden" || style.opacity === "0") continue;
        const filled = style.fill !== "none" && style.fillOpacity !== "0";
        const stroked = style.stroke !== "none" && style.strokeOpacity !== "0" && style.strokeWidth !== "0px";
        const box = (el as unknown as { getBBox(): { width: number; height: number } }).getBBox();
        if ((filled && box.width > 0 && box.height > 0) || (stroked && box.width + box.height > 0)) count++;
      }
      return count;
    });
}

/**
 * Issue 12's acceptance in a real Chromium against `sightline all` (API, worker and the built app in
 * one process) on a fresh database of each dialect, with the offline sandbox engine: sign up, add a
 * brand with two competitors and five prompts, run an analysis and watch it finish, read every brand
 * screen with its charts drawn, open an answer from the heat map, monitor the brand daily with a
 * visibility_drop rule, open a report, download every chart. Every screen passes axe at 1280 and 390
 * px with no console error, and is saved as a screenshot at both widths.
 *
 * Each test stands alone, in a browser context of its own signed in through the API, on a brand of
 * its own: the seed (brand-seed.ts) makes, through the dashboard's API, the owner and one workspace
 * per test with the brand and what the test reads (an analysis, a monitoring run, the fact sheet).
 * The sign-up test needs the installation as nobody has set it up: it is declared first, and the
 * seed starts when a later test first asks for its brand.
 */
describe.each(DIALECTS)("brand dashboards in a browser [%s]", (dialect) => {
  let browser: Browser;
  let installation: Installation;
  let brands: Record<Seeded, Promise<SeededBrand>> | undefined;
  let spare: Promise<SignedInPage> | undefined;
  let started = 0;
  const contexts: BrowserContext[] = [];
  const closing: Promise<void>[] = [];

  const shot = (page: Page, name: string, width: number) => screenshot(page, `brand-${dialect}-${name}-${width}`);

  /** The dashboard's own API with the page's session, as the app calls it. */
  async function workspaceApi<T>(page: Page, workspaceId: string, path: string): Promise<{ status: number; body: T }> {
    return page.evaluate(async (url) => {
      const response = await fetch(url);
      return { status: response.status, body: (await response.json()) as T };
    }, `/app/api/workspaces/${workspaceId}/v1${path}`);
  }

  /**
   * A desk of the test's own: a browser context with the session seeded for the test (the owner
   * signed in afresh), its page, and the seeded brand's ids, URLs and API.
   */
  async function desk(name: Seeded) {
    const [{ session, workspaceId, brandId, analysisId }, blank] = await Promise.all([seeds()[name], nextPage()]);
    const opened = await withSession(blank, installation, session);
    return {
      ...opened,
      base: installation.base,
      workspaceId,
      brandId,
      analysisId,
      brandUrl: (path = "") => `${installation.base}/w/${workspaceId}/brands/${brandId}${path}`,
      appApi: <T>(page: Page, path: string) => workspaceApi<T>(page, workspaceId, path),
    };
  }

  /**
   * The seeded brands, each test's in a workspace of its own: all started at once by the first test
   * that asks, and never before the sign-up test, which needs the installation as nobody has set it
   * up yet (it is declared first; the seed signs the owner in if that test made the account).
   */
  async function openSpare(): Promise<SignedInPage> {
    const opened = await openPage(browser, DESK);
    await opened.page.goto(`${installation.base}/sign-in`);
    // A string: vitest would rewrite a function's import() for Node.
    await opened.page.evaluate(`Promise.all(${JSON.stringify(APP_CODE)}.map((url) => import(url)))`);
    return opened;
  }

  function seeds(): Record<Seeded, Promise<SeededBrand>> {
    brands ??= seedBrands(installation, SEEDS);
    return brands;
  }

  /**
   * A browser context of the test's own (closed after it) and its page: opened while the test
   * before ran, as the next one's is now, with the app loaded signed out (its first load in a
   * context is the slow one).
   */
  function nextPage(): Promise<SignedInPage> {
    const taken = spare ?? openSpare();
    spare = openSpare();
    spare.catch(() => undefined);
    return taken.then((opened) => {
      contexts.push(opened.context);
      return opened;
    });
  }

  async function download(page: Page, click: () => Promise<void>): Promise<{ name: string; bytes: Buffer }> {
    const [file] = await Promise.all([page.waitForEvent("download"), click()]);
    const path = await file.path();
    return { name: file.suggestedFilename(), bytes: readFileSync(path) };
  }

  /** A chart card's PNG and CSV downloads: a real PNG image, a CSV with a header row and data rows. */
  async function expectChartExports(page: Page, card: Locator, title: string): Promise<void> {
    const png = await download(page, () => card.getByRole("button", { name: `Download “${title}” as PNG` }).click());
    expect(png.name).toMatch(/\.png$/);
    expect(png.bytes.subarray(0, 8).toString("hex"), `${title} PNG signature`).toBe("89504e470d0a1a0a");
    expect(png.bytes.readUInt32BE(16), `${title} PNG width`).toBeGreaterThan(100);
    const csv = await download(page, () =>
      card.getByRole("button", { name: `Download the data of “${title}” as CSV` }).click(),
    );
    expect(csv.name).toMatch(/\.csv$/);
    const lines = csv.bytes
      .toString("utf8")
      .replace(/^\uFEFF/, "")
      .trim()
      .split(/\r?\n/);
    expect(lines.length, `${title} CSV rows`).toBeGreaterThanOrEqual(2);
    expect(lines[0], `${title} CSV header`).toMatch(/^[A-Za-z"]/);
    expect(lines[0]?.split(",").length, `${title} CSV columns`).toBeGreaterThanOrEqual(2);
  }

  async function expectChartDrawn(card: Locator, title: string, atLeast = 1): Promise<void> {
    await card.locator("[role=img] svg").first().waitFor();
    expect(await chartMarks(card), `“${title}” draws visible marks`).toBeGreaterThanOrEqual(atLeast);
  }

  const chart = (page: Page, id: string) => page.locator(`section[aria-labelledby="${id}-title"]`);

  beforeAll(async () => {
    started = Date.now();
    [browser, installation] = await Promise.all([launchChromium(), startInstallation(dialect, ENV)]);
    spare = openSpare();
  }, 60_000);

  afterEach(async ({ task }) => {
    // A failed step shows what the server said meanwhile (the analysis and monitoring run in it).
    if (task.result?.state === "fail") {
      console.log(`server output (${dialect}):\n${installation?.server.output().slice(-6000)}`);
    }
    // Closed while the next test starts.
    closing.push(...contexts.splice(0).map((context) => context.close()));
  });

  afterAll(async () => {
    await Promise.allSettled([...Object.values(brands ?? {}), ...closing]);
    await browser?.close();
    await installation?.stop();
    console.log(
      `brand dashboard (${dialect}): ${Math.round((Date.now() - started) / 1000)} s, screenshots in ${SCREENSHOTS}`,
    );
  });

  it("signs up and adds a brand with two competitors and five prompts, every field of the project", async () => {
    const { base, server } = installation;
    const { page, problems } = await nextPage();
    await page.goto(`${base}/`);
    await page.waitForURL(/\/setup$/);
    await page.getByLabel("Setup code").fill(await server.setupCode());
    await page.getByLabel("Your name").fill(OWNER.name);
    await page.getByLabel("Work e-mail").fill(OWNER.email);
    await page.getByLabel("Password", { exact: true }).fill(OWNER.password);
    await page.getByLabel("Workspace name").fill("Northwind marketing");
    await page.getByRole("button", { name: "Create account" }).click();
    await page.waitForURL(/\/w\/ws_[^/]+$/);
    const workspaceId = /\/w\/(ws_[^/]+)$/.exec(page.url())?.[1] ?? "";

    // The empty brands list says what to do.
    await page.getByText("No brands yet").waitFor();
    await expectAccessible(page, "brands list, empty");
    await shot(page, "flow-1-brands-empty", 1280);

    await page.getByRole("link", { name: "Add brand" }).first().click();
    await page.waitForURL(/\/brands\/new$/);
    // Adding a brand starts from its website; this one is typed in by hand, expert fields and all.
    await page.getByLabel("Website address").waitFor();
    await page.getByRole("button", { name: "Skip — fill in by hand" }).click();
    await page.locator("summary").filter({ hasText: "Advanced" }).click();
    await page.getByLabel("Brand name").fill(BRAND.name);
    await page.getByLabel("Primary domain").fill(BRAND.domain);
    await page.getByLabel("Other domains").fill(BRAND.otherDomains);
    await page.getByLabel("Aliases", { exact: true }).fill(BRAND.aliases);
    // The brand's own field comes first; each competitor row has one too.
    await page.getByLabel("Case-sensitive aliases").first().fill(BRAND.caseSensitiveAliases);
    await page.getByLabel("Phrases that are not the brand, one per line").fill(BRAND.exclusions.join("\n"));
    await page
      .getByLabel("Kinds of cited sites, one per line")
      .fill(BRAND.citationCategories.map((c) => `${c.domain}: ${c.category}`).join("\n"));
    for (const [index, competitor] of BRAND.competitors.entries()) {
      if (index > 0) await page.getByRole("button", { name: "Add competitor" }).click();
      const row = page.getByRole("group", { name: `Competitor ${index + 1}` });
      await row.getByLabel("Competitor name").fill(competitor.name);
      await row.getByLabel("Competitor domains").fill(competitor.domains);
      await row.getByLabel("Competitor aliases").fill(competitor.aliases);
      await row.getByLabel("Case-sensitive aliases").fill(competitor.caseSensitiveAliases);
    }
    // Pasted at once, one per line, with a blank line and a duplicate that are dropped.
    await page
      .getByLabel("Prompts, one per line")
      .fill([...BRAND.prompts.slice(0, 3), "", BRAND.prompts[0], ...BRAND.prompts.slice(3)].join("\n"));
    await page.getByText("5 prompts (at most 200)").waitFor();
    expect(await page.getByRole("checkbox", { name: "Sandbox (offline)" }).isChecked()).toBe(true);
    await page.getByLabel("Country").fill("us");
    await page.getByLabel("Language").fill("en");
    await page.getByText("United States.").waitFor();
    await expectAccessible(page, "add brand");
    await shot(page, "flow-2-add-brand", 1280);
    await page.getByRole("button", { name: "Add brand" }).click();
    await page.waitForURL(/\/brands\/prj_[^/?]+(\?.*)?$/);
    const brandId = /\/brands\/(prj_[^/?]+)/.exec(page.url())?.[1] ?? "";

    const project = await workspaceApi<Record<string, unknown>>(page, workspaceId, `/projects/${brandId}`);
    expect(project.status).toBe(200);
    expect(project.body).toMatchObject({
      name: BRAND.name,
      primary_domain: BRAND.domain,
      other_domains: [BRAND.otherDomains],
      aliases: [BRAND.aliases],
      case_sensitive_aliases: [BRAND.caseSensitiveAliases],
      exclusions: BRAND.exclusions,
      citation_categories: BRAND.citationCategories,
      competitors: BRAND.competitors.map((c) => ({
        name: c.name,
        domains: [c.domains],
        aliases: [c.aliases],
        case_sensitive_aliases: c.caseSensitiveAliases === "" ? [] : [c.caseSensitiveAliases],
      })),
      prompts: BRAND.prompts,
      engines: ["sandbox"],
      country: "US",
      language: "en",
    });

    // Before any analysis the overview says so, and offers to run one.
    await page.getByRole("button", { name: "Run analysis now" }).first().waitFor();
    await expectAccessible(page, "overview before any analysis");
    await shot(page, "flow-3-overview-empty", 1280);
    expect(problems, "console errors during the flow").toEqual([]);
  }, 60_000);

  it("runs an analysis from the dashboard and shows its progress live until it completes", async () => {
    const { page, problems, brandUrl } = await desk("analyse");
    // The overview of a brand without any analysis offers to run one.
    await page.goto(brandUrl());
    await page.getByRole("button", { name: "Run analysis now" }).first().click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Samples").fill(String(SAMPLES));
    await dialog.getByText(`= ${ANSWERS} answers`).waitFor();
    await expectAccessible(page, "run analysis dialog");
    await shot(page, "flow-4-run-analysis", 1280);
    await dialog.getByRole("button", { name: "Start analysis" }).click();
    // The cost is confirmed before anything is spent.
    await dialog.getByRole("button", { name: `Spend ${ANSWERS} credits and start` }).click();
    await page.waitForURL(/\/analyses\/ana_[^/?]+/);

    // Seen before it finishes (the sandbox takes 1.5 s an answer), then completed without a reload.
    const progress = page.getByRole("progressbar", { name: "Answers received" });
    await progress.waitFor();
    await page.getByText(`of ${ANSWERS} answers`).first().waitFor();
    const before = await page.locator("#analysis-title").textContent();
    expect(before).toMatch(/Queued|Running/);
    await shot(page, "flow-5-analysis-running", 1280);
    await page.locator("#analysis-title").getByText("Completed").waitFor({ timeout: 30_000 });
    expect(await progress.getAttribute("aria-valuetext")).toBe(`${ANSWERS} of ${ANSWERS} answers`);
    await page.getByText(`${ANSWERS} succeeded`).waitFor();
    await page
      .getByRole("link", { name: /Open report/ })
      .first()
      .waitFor();
    await expectAccessible(page, "analysis completed");
    expect(problems, "console errors during the flow").toEqual([]);
  }, 60_000);

  it("shows what the engines charged: on the analysis, and per engine and month in Settings", async () => {
    const { page, problems, base, workspaceId, analysisId, brandUrl, appApi } = await desk("costs");
    await page.goto(brandUrl(`/analyses/${analysisId}`));
    const line = page.getByText(/^Cost: \$/);
    await line.waitFor();
    expect(await line.textContent()).toMatch(/^Cost: \$\d+\.\d+ \([\d,]+ tokens, [\d,]+ searches\)\.$/);
    const usage = await appApi<{ cost: { period: { answers: number; total: number } } }>(page, "/usage");
    expect(usage.body.cost.period.answers).toBe(ANSWERS);
    expect(usage.body.cost.period.total).toBeGreaterThan(0);
    await page.goto(`${base}/w/${workspaceId}/settings`);
    const section = page.getByRole("region", { name: "What the AI engines charged this period" });
    await section.waitFor();
    const row = section
      .getByRole("row")
      .filter({ hasText: /Sandbox/i })
      .first();
    const cells = await row.getByRole("cell").allTextContents();
    expect(cells[1]).toBe(String(ANSWERS));
    expect(cells[4]).toMatch(/^\$\d/);
    await section.getByText(`for ${ANSWERS} answers`).waitFor();
    await page.locator("#cost-title").scrollIntoViewIfNeeded();
    await expectAccessible(page, "settings with costs");
    await shot(page, "flow-5b-costs", 1280);
    expect(problems, "console errors during the flow").toEqual([]);
  });

  it("shows the overview: tiles with interval, n and change, every chart drawn, the filters working", async () => {
    const { page, problems, brandUrl } = await desk("overview");
    await page.goto(brandUrl());
    const tiles = page.getByRole("region", { name: "Headline figures" });
    await tiles.waitFor();
    for (const label of ["Visibility", "Share of voice", "Average position", "Sentiment", "Citation rate"]) {
      await tiles.getByText(label, { exact: true }).waitFor();
    }
    const visibility = tiles.locator("dl > div").first();
    const text = (await visibility.textContent()) ?? "";
    expect(text).toMatch(/\d+(\.\d+)?%/);
    expect(text).toContain("95% interval");
    expect(text).toMatch(new RegExp(`n\\s*=\\s*${ANSWERS}\\b`));
    // The previous period had no answers: the page says so once (issue 23), no tile repeats it, and
    // no change is marked as significant or not.
    expect(await page.getByText(/^Nothing to compare yet: no answers were measured in the period before/).count()).toBe(
      1,
    );
    expect(await tiles.getByText(/nothing measured in|no comparison/).count()).toBe(0);
    expect(
      await tiles
        .locator("dl")
        .getByText(/significant/i)
        .count(),
    ).toBe(0);

    for (const [id, title] of [
      ["visibility-chart", "Visibility over time"],
      ["share-of-voice-chart", "Share of voice against competitors"],
      ["position-chart", "Average position by engine"],
      ["sentiment-chart", "Sentiment by engine"],
    ] as const) {
      const card = chart(page, id);
      await expectChartDrawn(card, title);
      await expectChartExports(page, card, title);
    }
    // The visibility chart's interval band has a table of its figures with the n.
    const table = chart(page, "visibility-chart");
    await table.getByText("Show the figures as a table").click();
    expect(await table.getByRole("columnheader", { name: /answers \(n\)/ }).count()).toBeGreaterThan(0);
    // Days with answers (the last column is n); with fewer than two, the chart says why it shows a dot.
    const measuredDays = (await table.locator("tbody tr td:last-child").allTextContents()).filter(
      (n) => Number(n) > 0,
    ).length;
    expect(measuredDays).toBeGreaterThan(0);
    await table.getByText("Show the figures as a table").click();
    expect(await table.getByText(/^Only one day has answers so far/).count()).toBe(measuredDays < 2 ? 1 : 0);

    // Period presets, a custom range and the engine filter all keep the figures.
    await page.getByRole("combobox", { name: "Period" }).click();
    await page.getByRole("option", { name: "Last 7 days" }).click();
    await page.waitForURL(/days=7/);
    await tiles.waitFor();
    await page.getByRole("combobox", { name: "Period" }).click();
    await page.getByRole("option", { name: "Last 90 days" }).click();
    await page.waitForURL(/days=90/);
    await tiles.waitFor();
    await page.getByRole("combobox", { name: "Period" }).click();
    await page.getByRole("option", { name: "Custom range" }).click();
    const today = new Date().toISOString().slice(0, 10);
    const weekAgo = new Date(Date.now() - 6 * 86_400_000).toISOString().slice(0, 10);
    await page.getByLabel("From", { exact: true }).fill(weekAgo);
    await page.getByLabel("To", { exact: true }).fill(today);
    await page.getByRole("button", { name: "Apply range" }).click();
    await page.waitForURL(new RegExp(`from=${weekAgo}.*to=${today}|to=${today}.*from=${weekAgo}`));
    await tiles.waitFor();
    expect(await chartMarks(chart(page, "visibility-chart"))).toBeGreaterThan(0);
    await page.getByRole("combobox", { name: "Engine" }).click();
    await page.getByRole("option", { name: "Sandbox (offline)" }).click();
    await page.waitForURL(/engine=sandbox/);
    await tiles.waitFor();
    expect(await chartMarks(chart(page, "share-of-voice-chart"))).toBeGreaterThan(0);
    await page.goto(brandUrl());
    await tiles.waitFor();
    expect(problems, "console errors during the flow").toEqual([]);
  }, 90_000);

  it("opens an answer from the prompts heat map with the brand highlighted, its citations and measures", async () => {
    const { page, problems, brandId, brandUrl, appApi } = await desk("heatmap");
    await page.goto(brandUrl("/prompts"));
    const heatmap = page.locator('section[aria-labelledby="heatmap-title"]');
    await heatmap.waitFor();
    expect(await heatmap.getByRole("rowheader").count()).toBe(BRAND.prompts.length);
    const cells = heatmap.getByRole("link", { name: /Read the answers/ });
    expect(await cells.count()).toBe(BRAND.prompts.length);
    const csv = await download(page, () =>
      heatmap.getByRole("button", { name: "Download the prompt figures as CSV" }).click(),
    );
    expect(csv.bytes.toString("utf8").replace(/^\uFEFF/, "")).toMatch(/^Prompt,Engine,Visibility/);

    // The cell of a prompt whose answers name the brand.
    const prompts = await appApi<{ data: { prompt: string; figures: { visibility: { count: number } } }[] }>(
      page,
      `/projects/${brandId}/prompts/metrics?from=${new Date(Date.now() - 86_400_000).toISOString()}&to=${new Date(Date.now() + 60_000).toISOString()}`,
    );
    expect(prompts.status).toBe(200);
    const named = prompts.body.data.find((row) => row.figures.visibility.count > 0);
    expect(named, "some prompt's answers name the brand").toBeDefined();
    await heatmap
      .getByRole("row", { name: new RegExp(`^${named?.prompt ?? "?"}`) })
      .getByRole("link")
      .click();
    await page.waitForURL(/\/answers\?/);
    const url = new URL(page.url());
    expect(url.searchParams.get("prompt")).toBe(named?.prompt);
    expect(url.searchParams.get("engine")).toBe("sandbox");
    await page.getByText(`Showing ${SAMPLES} answers`).waitFor();

    // Filter to the answers that name the brand, then open one.
    await page.getByRole("combobox", { name: "Brand named" }).click();
    await page.getByRole("option", { name: `Naming ${BRAND.name}`, exact: true }).click();
    await page.waitForURL(/mentioned=yes/);
    const first = page
      .getByRole("listitem")
      .filter({ hasText: `Names ${BRAND.name}` })
      .first();
    await first.waitFor();
    expect(await page.getByText(`Does not name ${BRAND.name}`).count()).toBe(0);
    await first.getByRole("link").first().click();
    await page.waitForURL(/\/answers\/res_[^/?]+/);

    const prose = page.locator(".answer-prose");
    await prose.waitFor();
    const marks = prose.locator("mark.mention-brand");
    expect(await marks.count(), "the brand is highlighted in the answer").toBeGreaterThan(0);
    const marked = (await marks.allTextContents()).map((t) => t.toLowerCase());
    expect(marked.every((t) => t === "northwind crm" || t === "northwind")).toBe(true);
    const highlight = await marks
      .first()
      .evaluate((el) => el.ownerDocument.defaultView?.getComputedStyle(el).backgroundColor);
    expect(highlight, "the highlight is visible").not.toMatch(/rgba\(0, 0, 0, 0\)|transparent/);
    // Rendered Markdown, not its source.
    expect(await prose.textContent()).not.toContain("**");
    expect(await prose.locator("p, li, td").count()).toBeGreaterThan(0);
    for (const label of ["Engine", "Model", "Position (#1 = first)", "Sentiment", "Visibility score"]) {
      await page.getByText(label, { exact: true }).waitFor();
    }
    await page.getByText("sandbox-", { exact: false }).first().waitFor();
    await page.locator("time").first().waitFor();
    const citations = page.locator('section[aria-labelledby="citations-title"]');
    expect(await citations.getByRole("link").count()).toBeGreaterThan(0);
    expect(problems, "console errors during the flow").toEqual([]);
  }, 60_000);

  it("monitors the brand daily with a visibility_drop rule: created, saved, edited, paused, deleted", async () => {
    const { page, problems, brandId, brandUrl, appApi } = await desk("monitoring");
    await page.goto(brandUrl("/monitoring"));
    await page.getByText("No schedules yet").waitFor();
    await page.getByRole("button", { name: "New schedule" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("combobox", { name: "Frequency" }).click();
    await page.getByRole("option", { name: "Every day" }).click();
    await dialog.getByLabel("Time of day").fill("08:30");
    await dialog.getByLabel("Time zone").fill("Europe/Paris");
    // Six samples of five prompts: the sandbox names the brand in about 70% of answers, so all 30
    // naming it (and the "below 99%" rule below not firing) happens about 2 times in 100,000 runs;
    // with two samples it was 3 in 100, and it happened.
    await dialog.getByLabel("Samples").fill("6");
    // A new schedule starts with one rule, which is made a visibility drop of 10 points.
    expect(await dialog.getByRole("group", { name: /^Alert rule/ }).count()).toBe(1);
    const rule = dialog.getByRole("group", { name: "Alert rule 1" });
    await rule.getByRole("combobox", { name: "Condition" }).click();
    await page.getByRole("option", { name: "Visibility drops" }).click();
    await rule.getByLabel("Drop (percentage points)").fill("10");
    await expectAccessible(page, "new schedule dialog");
    await shot(page, "flow-6-schedule-dialog", 1280);
    // The vendors' batch APIs are an opt-in, off by default (a run would otherwise take up to 24 hours).
    const batch = dialog.getByRole("checkbox", { name: "Use the vendors' batch APIs" });
    await batch.scrollIntoViewIfNeeded();
    expect(await batch.isChecked()).toBe(false);
    await shot(page, "flow-6-schedule-dialog-batch", 1280);
    await dialog.getByRole("button", { name: "Create schedule" }).click();
    await dialog.waitFor({ state: "detached" });

    // On the page: when, what, the rule, the next run.
    const item = page
      .locator("ul > li")
      .filter({ has: page.getByRole("heading", { level: 3 }) })
      .first();
    await item.waitFor();
    const itemText = (await item.textContent()) ?? "";
    expect(itemText).toMatch(/08:30/);
    expect(itemText).toContain("Europe/Paris");
    expect(itemText).toMatch(/10 (percentage )?points/);
    expect(itemText).toContain("Active");
    // The next run on the schedule's own clock, whatever the browser's zone.
    expect(await item.locator("dt:text-is('Next run') + dd").textContent()).toMatch(/8:30\sAM/);
    expect(itemText).not.toContain("None while paused");

    // Saved, as the API reads it.
    const saved = await appApi<{
      data: {
        id: string;
        schedule: Record<string, unknown>;
        timezone: string;
        samples: number;
        active: boolean;
        next_run_at: string | null;
        alert_rules: { type: string; threshold?: number; points?: number }[];
      }[];
    }>(page, `/monitoring?project_id=${brandId}`);
    expect(saved.status).toBe(200);
    expect(saved.body.data).toHaveLength(1);
    const schedule = saved.body.data[0];
    expect(schedule).toMatchObject({ timezone: "Europe/Paris", samples: 6, active: true });
    expect(schedule?.schedule).toMatchObject({ every: "day", at: "08:30" });
    expect(schedule?.next_run_at).not.toBeNull();
    expect(schedule?.alert_rules).toHaveLength(1);
    expect(schedule?.alert_rules[0]?.type).toBe("visibility_drop");
    expect(JSON.stringify(schedule?.alert_rules[0])).toContain("10");

    // Edited: the time changes, and a second rule that holds at once (visibility below 99%).
    await item.getByRole("button", { name: /^Edit schedule/ }).click();
    await dialog.getByLabel("Time of day").fill("09:15");
    await dialog.getByRole("button", { name: "Add alert rule" }).click();
    const second = dialog.getByRole("group", { name: "Alert rule 2" });
    await second.getByRole("combobox", { name: "Condition" }).click();
    await page.getByRole("option", { name: "Visibility falls below" }).click();
    await second.getByLabel("Threshold (% of answers)").fill("99");
    await dialog.getByRole("button", { name: "Save schedule" }).click();
    await dialog.waitFor({ state: "detached" });
    await item.getByText(/09:15/).first().waitFor();
    await item.getByText("Visibility falls below 99%").waitFor();

    // Run now (its cost confirmed): the run is seen to finish and the rule fires an alert, without reloading the page.
    await item.getByRole("button", { name: /^Run now/ }).click();
    await page
      .getByRole("alertdialog")
      .getByRole("button", { name: /^Spend \d+ credits? and run$/ })
      .click();
    await item.getByRole("heading", { name: "Recent runs" }).waitFor();
    const run = item.getByRole("listitem").filter({ hasText: "run by hand" });
    await run.getByText("Completed", { exact: true }).waitFor({ timeout: 20_000 });
    await run.getByText(/^Visibility \d+%/).waitFor();
    const alerts = page.locator('section[aria-labelledby="alerts-title"]');
    await alerts.getByText(/Visibility falls below 99%/).waitFor({ timeout: 10_000 });
    await item.getByText(/, completed$/).waitFor();
    // Worked through: acknowledged, it leaves the open alerts and the navigation's count; reopened, it is back.
    const workspaceNav = page.getByRole("navigation", { name: "Workspace" }).first();
    await workspaceNav.getByRole("link", { name: "Open alerts 1" }).waitFor();
    await alerts.getByRole("button", { name: /^Acknowledge alert: Visibility falls below 99%/ }).click();
    await alerts.getByText("No open alerts").waitFor();
    await workspaceNav.getByRole("link", { name: "Open alerts 1" }).waitFor({ state: "detached" });
    await alerts.getByRole("button", { name: "Acknowledged", exact: true }).click();
    await alerts.getByRole("button", { name: /^Reopen alert: Visibility falls below 99%/ }).click();
    await alerts.getByRole("button", { name: "Open", exact: true }).click();
    await alerts.getByText(/Visibility falls below 99%/).waitFor();
    await workspaceNav.getByRole("link", { name: "Open alerts 1" }).waitFor();
    await item.getByRole("button", { name: /^Pause schedule/ }).click();
    await item.getByText("Paused", { exact: true }).waitFor();
    await item.getByText("None while paused").waitFor();
    const paused = await appApi<{ data: { active: boolean; schedule: { at?: string } }[] }>(
      page,
      `/monitoring?project_id=${brandId}`,
    );
    expect(paused.body.data[0]).toMatchObject({ active: false, schedule: { at: "09:15" } });
    await page.getByRole("heading", { name: "Alerts" }).waitFor();
    await expectAccessible(page, "monitoring");
    await shot(page, "flow-7-monitoring-runs", 1280);
    await item.getByRole("button", { name: /^Resume schedule/ }).click();
    await item.getByText("Active", { exact: true }).waitFor();

    await page.getByRole("button", { name: "New schedule" }).click();
    await dialog.getByRole("combobox", { name: "Frequency" }).click();
    await page.getByRole("option", { name: "Every week" }).click();
    await dialog.getByRole("button", { name: "Create schedule" }).click();
    await dialog.waitFor({ state: "detached" });
    const weekly = page.getByRole("button", { name: /^Delete schedule: Every Monday/ });
    await weekly.click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete schedule" }).click();
    await expect
      .poll(async () => (await appApi<{ data: unknown[] }>(page, `/monitoring?project_id=${brandId}`)).body.data.length)
      .toBe(1);
    expect(problems, "console errors during the flow").toEqual([]);
  }, 90_000);

  it("lists the analyses and reports; the report opens as HTML and downloads as CSV", async () => {
    const { page, context, problems, brandId, brandUrl, appApi } = await desk("reports");
    await page.goto(brandUrl("/analyses"));
    // The schedule's "Run now" made a second report; both are listed before the page is read.
    await expect
      .poll(async () => (await appApi<{ data: unknown[] }>(page, `/reports?project_id=${brandId}`)).body.data.length, {
        timeout: 20_000,
      })
      .toBe(2);
    await page.goto(brandUrl("/analyses"));
    const analyses = page.locator('section[aria-labelledby="analyses-title"]');
    await analyses.getByText("Completed").first().waitFor();
    const reports = page.locator('section[aria-labelledby="reports-title"]');
    // The analysis's own report (the monitoring run made one too, with fewer answers).
    const report = reports.getByRole("listitem").filter({ has: page.getByText("Analysis", { exact: true }) });
    const open = report.getByRole("link", { name: /^Open report/ });
    await open.waitFor();
    expect(await reports.getByRole("listitem").count()).toBe(2);
    const [popup] = await Promise.all([context.waitForEvent("page"), open.click()]);
    await popup.waitForLoadState("load");
    expect(new URL(popup.url()).pathname).toMatch(/\/reports\/rpt_[^/]+$/);
    const html = (await popup.textContent("body")) ?? "";
    expect(html).toContain(BRAND.name);
    expect(html).toMatch(/Visibility/i);
    await screenshot(popup, `brand-${dialect}-flow-8-report-html`);
    await popup.close();
    const csv = await download(page, () => report.getByRole("link", { name: /^Download the answers of/ }).click());
    const lines = csv.bytes
      .toString("utf8")
      .replace(/^\uFEFF/, "")
      .trim()
      .split(/\r?\n/);
    expect(lines[0]).toMatch(/prompt/i);
    expect(lines.length).toBeGreaterThan(ANSWERS);
    expect(problems, "console errors during the flow").toEqual([]);
  }, 60_000);

  it("shows sources and the competitors leaderboard with their charts and exports", async () => {
    const { page, problems, brandUrl } = await desk("sources");
    await page.goto(brandUrl("/sources"));
    const sources = chart(page, "sources-chart");
    await expectChartDrawn(sources, "Top cited domains");
    await expectChartExports(page, sources, "Top cited domains");
    for (const [id, label] of [
      ["domains-title", "Download the cited domains as CSV"],
      ["urls-title", "Download the cited pages as CSV"],
    ] as const) {
      const table = page.locator(`section[aria-labelledby="${id}"]`);
      await table.getByRole("row").nth(1).waitFor();
      const file = await download(page, () => table.getByRole("button", { name: label }).click());
      expect(
        file.bytes
          .toString("utf8")
          .replace(/^\uFEFF/, "")
          .split(/\r?\n/).length,
      ).toBeGreaterThan(2);
    }

    // Citations by kind of source, and each domain's kind in the table and its CSV.
    const kinds = page.locator('section[aria-labelledby="categories-title"]');
    expect(await kinds.getByRole("listitem").count()).toBe(7);
    expect(await kinds.textContent()).toMatch(/Owned\s*\d+/);

    // The searches the engines ran (the sandbox runs each prompt as a search), with their CSV.
    const searches = page.locator('section[aria-labelledby="searches-title"]');
    await searches
      .getByText(BRAND.prompts[0]?.toLowerCase() ?? "", { exact: true })
      .first()
      .waitFor();
    const searchesCsv = await download(page, () =>
      searches.getByRole("button", { name: "Download the searches as CSV" }).click(),
    );
    const searchLines = searchesCsv.bytes
      .toString("utf8")
      .replace(/^\uFEFF/, "")
      .split(/\r?\n/);
    expect(searchLines[0]).toMatch(/^Search,Answers,Engines/);
    expect(searchLines.length).toBeGreaterThan(2);

    // The ten most cited pages first, the rest one click away.
    const urls = page.locator('section[aria-labelledby="urls-title"]');
    expect(await urls.getByRole("row").count()).toBe(1 + 10);
    await urls.getByRole("button", { name: /^Show all \d+ pages$/ }).click();
    expect(await urls.getByRole("row").count()).toBeGreaterThan(1 + 10);

    await page.goto(brandUrl("/competitors"));
    const board = page.locator('section[aria-labelledby="leaderboard-title"]');
    await board.waitFor();
    for (const name of [BRAND.name, ...BRAND.competitors.map((c) => c.name)]) {
      await board.getByText(name).first().waitFor();
    }
    const leaderboard = await download(page, () =>
      board.getByRole("button", { name: "Download the leaderboard as CSV" }).click(),
    );
    const rows = leaderboard.bytes
      .toString("utf8")
      .replace(/^\uFEFF/, "")
      .trim()
      .split(/\r?\n/);
    expect(rows).toHaveLength(1 + 1 + BRAND.competitors.length);
    const vs = chart(page, "leaderboard-chart");
    await expectChartDrawn(vs, "Visibility against competitors", 3);
    await expectChartExports(page, vs, "Visibility against competitors");
    expect(problems, "console errors during the flow").toEqual([]);
  }, 60_000);

  it("edits the brand: every field shown with its value, a change saved", async () => {
    const { page, problems, brandId, brandUrl, appApi } = await desk("edit");
    await page.goto(brandUrl("/edit"));
    await expect.poll(() => page.getByLabel("Brand name").inputValue()).toBe(BRAND.name);
    expect(await page.getByLabel("Primary domain").inputValue()).toBe(BRAND.domain);
    expect(await page.getByLabel("Other domains").inputValue()).toBe(BRAND.otherDomains);
    expect(await page.getByLabel("Aliases", { exact: true }).inputValue()).toBe(BRAND.aliases);
    expect(await page.getByLabel("Competitor name").nth(1).inputValue()).toBe(BRAND.competitors[1]?.name);
    expect(await page.getByLabel("Case-sensitive aliases").first().inputValue()).toBe(BRAND.caseSensitiveAliases);
    expect(
      await page.getByRole("group", { name: "Competitor 1" }).getByLabel("Case-sensitive aliases").inputValue(),
    ).toBe(BRAND.competitors[0]?.caseSensitiveAliases);
    expect(await page.getByLabel("Kinds of cited sites, one per line").inputValue()).toBe(
      BRAND.citationCategories.map((c) => `${c.domain}: ${c.category}`).join("\n"),
    );
    expect(await page.getByLabel("Phrases that are not the brand, one per line").inputValue()).toBe(
      BRAND.exclusions.join("\n"),
    );
    expect(await page.getByLabel("Prompts, one per line").inputValue()).toBe(BRAND.prompts.join("\n"));
    expect(await page.getByLabel("Country").inputValue()).toBe("US");
    expect(await page.getByLabel("Language").inputValue()).toBe("en");
    await page.getByLabel("Language").fill("en-US");
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.waitForURL(new RegExp(`/brands/${brandId}(\\?.*)?$`));
    const project = await appApi<{ language: string }>(page, `/projects/${brandId}`);
    expect(project.body.language).toBe("en-US");
    expect(problems, "console errors during the flow").toEqual([]);
  }, 30_000);

  it("checks answers against the fact sheet, compares API and web, ranks opportunities, shares a report and its PDF", async () => {
    const { page, problems, base, workspaceId, brandId, brandUrl, appApi } = await desk("facts");
    await page.goto(brandUrl("/edit"));
    await expect.poll(() => page.getByLabel("Brand name").inputValue()).toBe(BRAND.name);
    await page.getByLabel("Founded in").fill("2015");
    await page.getByLabel("Headquarters").fill("Seattle, Washington");
    await page.getByLabel("Amount").fill("29");
    await page.getByLabel("Key features, one per line").fill("Slack integration");
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.waitForURL(new RegExp(`/brands/${brandId}(\\?.*)?$`));
    const project = await appApi<{ facts: unknown }>(page, `/projects/${brandId}`);
    expect(project.body.facts).toEqual({
      founded_year: 2015,
      headquarters: "Seattle, Washington",
      starting_price: { amount: 29, currency: "USD", period: "month" },
      features: ["Slack integration"],
    });

    // Both surfaces of the sandbox in one analysis, through the dashboard's API as the app calls it.
    const run = await page.evaluate(
      async ({ url, body }) => {
        const response = await fetch(url, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        });
        return { status: response.status, body: (await response.json()) as { id: string } };
      },
      {
        url: `/app/api/workspaces/${workspaceId}/v1/analyze`,
        body: { project_id: brandId, engines: ["sandbox", "sandbox_web"], samples: 4, wait: 30 },
      },
    );
    expect(run.status).toBe(200);
    await page.goto(brandUrl(`/analyses/${run.body.id}`));
    const surfaces = page.getByRole("region", { name: "API vs Web (as people see it)" });
    await surfaces.waitFor();
    const row = surfaces.getByRole("row", { name: /Sandbox \(offline\) · Sandbox web \(offline\)/ });
    expect(await row.textContent()).toMatch(/n = 20.*n = 20.*(statistically real|within chance)/s);
    await expectAccessible(page, "analysis with API vs web");
    await shot(page, "flow-20-api-vs-web", 1280);

    // Opportunities: the page lists what the API ranks, and each card leads to its answers.
    const api = await appApi<{ data: { kind: string; title: string }[] }>(
      page,
      `/projects/${brandId}/opportunities?limit=100`,
    );
    expect(api.status).toBe(200);
    expect(api.body.data.some((o) => o.kind === "citation_gap")).toBe(true);
    await page.getByRole("link", { name: "Opportunities" }).click();
    const list = page.getByRole("list", { name: "Opportunities" });
    // The cards themselves, not the lists of pages inside them.
    const cards = list.locator(":scope > li");
    await cards.first().waitFor();
    expect(await cards.count()).toBe(api.body.data.length);
    const first = cards.first();
    expect(await first.getByRole("heading").textContent()).toBe(api.body.data[0]?.title);
    await expectAccessible(page, "opportunities");
    await shot(page, "flow-21-opportunities", 1280);
    await first.getByRole("link", { name: "answer 1" }).click();
    await page.waitForURL(/\/answers\/res_[^/?]+/);
    await page.locator(".answer-prose").waitFor();

    // The analysis's report: shared by a link that opens without a session, then revoked; and its PDF.
    await page.goto(brandUrl(`/analyses/${run.body.id}`));
    await page.getByRole("button", { name: /^Share report/ }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("button", { name: "Create link" }).click();
    const link = await dialog.getByRole("textbox", { name: "New link" }).inputValue();
    expect(link).toMatch(new RegExp(`^${base}/shared/reports/rsh_`));
    await expectAccessible(page, "share dialog");
    await shot(page, "flow-22-share", 1280);
    const visitor = await browser.newContext();
    const stranger = await visitor.newPage();
    expect((await stranger.goto(link))?.status()).toBe(200);
    expect(await stranger.locator("h1").textContent()).toMatch(/^Northwind CRM — AI visibility on /);
    expect(await stranger.getByRole("heading", { name: "API and as people see it" }).count()).toBe(1);
    await dialog.getByRole("button", { name: /^Revoke the link/ }).click();
    await dialog.getByText("Revoked", { exact: true }).waitFor();
    expect((await stranger.goto(link))?.status()).toBe(404);
    expect(await stranger.locator("h1").textContent()).toBe("This link is not available");
    await visitor.close();
    await page.keyboard.press("Escape");
    const pdf = await download(page, () => page.getByRole("link", { name: /^Download report .* as PDF$/ }).click());
    // Named by its title in words, never by an id.
    expect(pdf.name).toMatch(/^Northwind CRM - AI visibility on .* UTC - .*\.pdf$/);
    expect(pdf.bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(problems, "console errors during the flow").toEqual([]);
  }, 90_000);

  it("suggests a brand the answers name but the brand does not track, and tracks it in one click", async () => {
    const { page, problems, workspaceId, brandId, brandUrl, appApi } = await desk("suggestions");
    await page.goto(brandUrl("/competitors"));
    const setCompetitors = (competitors: ReturnType<typeof competitorBody>[]) =>
      page.evaluate(
        async ({ url, body }) => {
          const response = await fetch(url, {
            method: "PATCH",
            headers: { "content-type": "application/json" },
            body: JSON.stringify(body),
          });
          return response.status;
        },
        { url: `/app/api/workspaces/${workspaceId}/v1/projects/${brandId}`, body: { competitors } },
      );
    const [kept, dropped] = BRAND.competitors;
    if (kept === undefined || dropped === undefined) throw new Error("the brand has two competitors");
    // Stop tracking a competitor the sandbox's answers name: its name becomes a suggestion.
    expect(await setCompetitors([competitorBody(kept)])).toBe(200);
    await page.goto(brandUrl("/competitors"));
    const card = page.locator('section[aria-labelledby="suggestions-title"]');
    await card.getByText(dropped.name, { exact: true }).waitFor();
    await expectAccessible(page, "competitor suggestions");
    await shot(page, "flow-9-competitor-suggestions", 1280);
    await card.getByRole("button", { name: `Track ${dropped.name} as a competitor` }).click();
    await page.getByText(`${dropped.name} is tracked as a competitor`).first().waitFor();
    await expect.poll(async () => (await card.getByText(dropped.name, { exact: true }).count()) === 0).toBe(true);
    const project = await appApi<{ competitors: { name: string }[] }>(page, `/projects/${brandId}`);
    expect(project.body.competitors.map((c) => c.name)).toEqual([kept.name, dropped.name]);
    // Back to the competitors as they were added (domains and aliases too).
    expect(await setCompetitors(BRAND.competitors.map(competitorBody))).toBe(200);
    expect(problems, "console errors during the flow").toEqual([]);
  }, 30_000);

  it("organises the prompts: a tag added and filtered by, a prompt switched off, suggested questions added", async () => {
    const { page, problems, brandId, brandUrl, appApi } = await desk("prompts");
    const [tagged, other, , , paused] = BRAND.prompts as [string, string, string, string, string];
    await page.goto(brandUrl("/prompts"));
    const card = page.locator('section[aria-labelledby="tracked-prompts-title"]');
    await card.getByText(tagged, { exact: true }).waitFor();

    // Tags: typed (any case), saved lower-case, shown on the prompt; one removed again.
    for (const [prompt, tag] of [
      [tagged, "Persona:Founder"],
      [other, "funnel:awareness"],
      [other, "typo"],
    ] as const) {
      await card.getByLabel(`New tag for “${prompt}”`).fill(tag);
      await card.getByRole("button", { name: `Add the tag to “${prompt}”` }).click();
      await card.getByRole("button", { name: `Remove the tag ${tag.toLowerCase()} from “${prompt}”` }).waitFor();
    }
    await card.getByRole("button", { name: `Remove the tag typo from “${other}”` }).click();
    await expect.poll(() => card.getByRole("button", { name: `Remove the tag typo from “${other}”` }).count()).toBe(0);
    const tags = await appApi<{ prompt_tags: Record<string, string[]> }>(page, `/projects/${brandId}`);
    expect(tags.body.prompt_tags).toEqual({ [tagged]: ["persona:founder"], [other]: ["funnel:awareness"] });

    // The tag filter: only that prompt's answers, here and on every brand page the navigation leads to.
    await page.getByRole("combobox", { name: "Prompt tag" }).click();
    await page.getByRole("option", { name: "persona:founder (1 prompt)" }).click();
    await page.waitForURL(/tag=persona%3Afounder/);
    const heatmap = page.locator('section[aria-labelledby="heatmap-title"]');
    await expect.poll(() => heatmap.getByRole("rowheader").count()).toBe(1);
    expect(await heatmap.getByRole("rowheader").textContent()).toContain(tagged);
    await page.getByRole("link", { name: "Overview" }).click();
    await page.waitForURL(/tag=persona%3Afounder/);
    const tiles = page.getByRole("region", { name: "Headline figures" });
    await tiles.waitFor();
    // The prompt's answers (the analysis's), as the results API lists them.
    const answers = await appApi<{ data: unknown[] }>(
      page,
      `/results?project_id=${brandId}&status=succeeded&limit=100&prompt=${encodeURIComponent(tagged)}`,
    );
    const n = answers.body.data.length;
    expect(n).toBeGreaterThanOrEqual(SAMPLES);
    expect(await tiles.locator("dl > div").first().textContent()).toMatch(new RegExp(`n\\s*=\\s*${n}\\b`));
    const metrics = await appApi<{ total: { overall: { counts: { answers: number } } } }>(
      page,
      `/projects/${brandId}/metrics?tag=persona%3Afounder`,
    );
    expect(metrics.body.total.overall.counts.answers).toBe(n);
    await expectAccessible(page, "overview filtered by a prompt tag");
    await shot(page, "flow-10-overview-by-tag", 1280);

    // Switched off: saved, marked, and left out of the next analysis unless ticked.
    await page.goto(brandUrl("/prompts"));
    const toggle = card.getByRole("switch", { name: `Ask “${paused}” in analyses and monitoring` });
    expect(await toggle.getAttribute("aria-checked")).toBe("true");
    await toggle.click();
    await expect.poll(() => toggle.getAttribute("aria-checked")).toBe("false");
    await card.getByText("Switched off", { exact: true }).waitFor();
    const off = await appApi<{ paused_prompts: string[] }>(page, `/projects/${brandId}`);
    expect(off.body.paused_prompts).toEqual([paused]);
    await page.getByRole("button", { name: "Run analysis now" }).first().click();
    const run = page.getByRole("dialog");
    expect(await run.getByRole("checkbox", { name: paused }).isChecked()).toBe(false);
    await run.getByText(`Prompts (${BRAND.prompts.length - 1} prompts of ${BRAND.prompts.length})`).waitFor();
    await page.keyboard.press("Escape");
    await run.waitFor({ state: "detached" });

    // Suggestions: the category asked for and saved, questions ticked and added with their funnel tag.
    await card.getByRole("button", { name: "Suggest prompts" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("What the brand sells").fill("CRM for small agencies");
    await dialog.getByLabel("How many").fill("6");
    await expectAccessible(page, "suggest prompts dialog");
    await dialog.getByRole("button", { name: "Suggest" }).click();
    const suggested = dialog.getByRole("checkbox");
    await expect.poll(() => suggested.count()).toBe(6);
    const labels = await dialog.locator("label").allTextContents();
    expect(labels.join(" ").toLowerCase()).not.toContain("northwind");
    await suggested.nth(0).click();
    await suggested.nth(1).click();
    const chosen = [labels[0] ?? "", labels[1] ?? ""];
    await expectAccessible(page, "suggested prompts");
    await shot(page, "flow-11-suggested-prompts", 1280);
    await dialog.getByRole("button", { name: "Add 2 prompts" }).click();
    await dialog.waitFor({ state: "detached" });
    await card.getByText(chosen[0] ?? "", { exact: true }).waitFor();
    const added = await appApi<{ prompts: string[]; prompt_tags: Record<string, string[]>; category: string }>(
      page,
      `/projects/${brandId}`,
    );
    expect(added.body.category).toBe("CRM for small agencies");
    expect(added.body.prompts).toEqual([...BRAND.prompts, ...chosen]);
    for (const prompt of chosen) expect(added.body.prompt_tags[prompt]?.[0]).toMatch(/^funnel:/);
    await expectAccessible(page, "prompts organised");
    await shot(page, "flow-12-prompts-organised", 1280);
    expect(problems, "console errors during the flow").toEqual([]);
  }, 60_000);

  it("shows every screen filled, accessible and fitting at 1280 and 390 px, with no console error", async () => {
    const { session, workspaceId, brandId, analysisId, answerId } = await seeds().screens;
    const brandUrl = (path = "") => `${installation.base}/w/${workspaceId}/brands/${brandId}${path}`;
    // A screen's dialog, opened by the button named `opener`, is checked and saved as well.
    const screens: { name: string; path: string; ready: (page: Page) => Promise<void>; dialog?: string }[] = [
      {
        name: "04-brands",
        path: `/w/${workspaceId}`,
        ready: async (page) => {
          const row = page.getByRole("listitem").filter({ hasText: BRAND.name });
          await row.getByText("Visibility, last 30 days").waitFor();
          expect(await row.textContent()).toMatch(/\d+%.*n\s*=\s*\d+.*Share of voice, last 30 days\d+/s);
          const sparkMarks = await row
            .locator("svg")
            .first()
            .evaluate((svg) => svg.querySelectorAll("polyline, circle").length);
          expect(sparkMarks, "the sparkline draws").toBeGreaterThan(0);
        },
      },
      {
        name: "05-add-brand",
        path: `/w/${workspaceId}/brands/new`,
        ready: async (page) => {
          // Adding a brand starts from its website (issue 23).
          await page.getByLabel("Website address").waitFor();
        },
      },
      {
        name: "06-overview",
        path: "",
        dialog: "Run analysis now",
        ready: async (page) => {
          await page.getByRole("region", { name: "Headline figures" }).waitFor();
          for (const id of ["visibility-chart", "share-of-voice-chart", "position-chart", "sentiment-chart"])
            await expectChartDrawn(chart(page, id), id);
        },
      },
      {
        name: "07-prompts",
        path: "/prompts",
        dialog: "Suggest prompts",
        ready: async (page) => {
          await page.locator('section[aria-labelledby="heatmap-title"]').getByRole("link").first().waitFor();
        },
      },
      {
        name: "08-answers",
        path: "/answers",
        ready: async (page) => {
          await page.getByText(/^Showing \d+ answers/).waitFor();
        },
      },
      {
        name: "09-answer",
        path: `/answers/${answerId}`,
        ready: async (page) => {
          await page.locator(".answer-prose mark.mention-brand").first().waitFor();
        },
      },
      {
        name: "10-sources",
        path: "/sources",
        ready: async (page) => expectChartDrawn(chart(page, "sources-chart"), "sources"),
      },
      {
        name: "11-competitors",
        path: "/competitors",
        ready: async (page) => expectChartDrawn(chart(page, "leaderboard-chart"), "leaderboard"),
      },
      {
        name: "12-monitoring",
        path: "/monitoring",
        dialog: "New schedule",
        ready: async (page) => {
          await page.getByRole("heading", { level: 3 }).first().waitFor();
          await page.getByRole("heading", { name: "Alerts" }).waitFor();
        },
      },
      {
        name: "13-analyses",
        path: "/analyses",
        ready: async (page) => {
          await page
            .getByRole("link", { name: /^Open report/ })
            .first()
            .waitFor();
        },
      },
      {
        name: "14-analysis",
        path: `/analyses/${analysisId}`,
        ready: async (page) => {
          await page.locator("#analysis-title").getByText("Completed").waitFor();
        },
      },
      {
        name: "16-opportunities",
        path: "/opportunities",
        ready: async (page) => {
          await page.getByRole("list", { name: "Opportunities" }).getByRole("listitem").first().waitFor();
        },
      },
      {
        name: "17-settings-costs",
        path: `/w/${workspaceId}/settings`,
        ready: async (page) => {
          const costs = page.getByRole("region", { name: "What the AI engines charged this period" });
          await costs
            .getByRole("row")
            .filter({ hasText: /Sandbox/i })
            .first()
            .waitFor();
          await page.locator("#cost-title").scrollIntoViewIfNeeded();
        },
      },
      {
        name: "15-edit",
        path: "/edit",
        ready: async (page) => {
          await expect.poll(() => page.getByLabel("Brand name").inputValue()).toBe(BRAND.name);
        },
      },
    ];
    // The test's session, in a browser context of its own at each width.
    for (const width of WIDTHS) {
      const { context, page, problems } = await sessionPage(browser, installation, session, {
        viewport: { width, height: 900 },
        locale: "en-US",
      });
      try {
        for (const screen of screens) {
          await page.goto(screen.path.startsWith("/w/") ? `${installation.base}${screen.path}` : brandUrl(screen.path));
          await screen.ready(page);
          await expectAccessible(page, `${screen.name} at ${width} px`);
          await expectNoSidewaysScroll(page, width, screen.name);
          await shot(page, screen.name, width);
          if (screen.dialog !== undefined) {
            await page.getByRole("button", { name: screen.dialog }).first().click();
            const dialog = page.getByRole("dialog");
            await dialog.getByRole("button", { name: /^(Start analysis|Create schedule|Suggest)$/ }).waitFor();
            await expectAccessible(page, `${screen.name} dialog at ${width} px`);
            const fits = await dialog.evaluate((el) => {
              const box = el.getBoundingClientRect();
              return box.left >= 0 && box.right <= (el.ownerDocument.defaultView?.innerWidth ?? 0);
            });
            expect(fits, `${screen.name} dialog fits ${width} px`).toBe(true);
            await shot(page, `${screen.name}-dialog`, width);
            await page.keyboard.press("Escape");
            await dialog.waitFor({ state: "detached" });
          }
        }
      } finally {
        await context.close();
      }
      expect(problems, `console errors at ${width} px`).toEqual([]);
    }
    // Thirteen screens, two widths, axe on each: about a minute alone, twice that on a loaded
    // two-core machine (a clean-clone run timed out at 120 s once); the bound is a hang's, not a speed goal.
  }, 300_000);
});
