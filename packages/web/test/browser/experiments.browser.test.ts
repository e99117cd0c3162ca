import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createRuntime } from "../../../server/src/app/runtime.ts";
import { ManualClock } from "../../../server/src/lib/clock.ts";
import { createLogger } from "../../../server/src/lib/logger.ts";
import { createAnalysis } from "../../../server/src/services/analyses/create.ts";
import { runAnalysisHandler } from "../../../server/src/services/analyses/run.ts";
import { settleExperiments } from "../../../server/src/services/experiments/samples.ts";
import { workspaceContext } from "../../../server/src/services/workspaces/workspaces.ts";
import { expectAccessible, launchChromium, SCREENSHOTS, screenshot } from "../../../server/test/helpers/browser.ts";
import { TEST_SECRET_KEY } from "../../../server/test/helpers/harness.ts";
import { appCall, type Installation, type Session, sessionPage, signUp, startInstallation } from "./installation.ts";
import { expectNoSidewaysScroll } from "./screens.ts";
import { startScriptedEngine } from "./scripted-engine.ts";

const OWNER = { name: "Mia Marketer", email: "mia@northwind.example.com", password: "a long enough password for mia" };
const DOMAIN = "northwind.example";
// The browser's clock in UTC, so that the form's local date and time are the test's.
const OPTIONS = { locale: "en-US", reducedMotion: "reduce", timezoneId: "UTC" } as const;
const DAY = 86_400_000;
const PROMPTS = [
  "best CRM for a small agency",
  "CRM pricing for small teams",
  "cheapest CRM for startups",
  "which CRM is easiest to set up",
  "CRM with a good Slack integration",
  "CRM alternatives for a sales team of ten",
];
const TREATED = PROMPTS.slice(0, 3);
/** The change the form records: ten days ago. */
const CHANGE_DAYS_AGO = 10;
/** When the seeded analyses ran, in days ago: before the change and after it. */
const ANALYSES_DAYS_AGO = [36, 33, 30, 27, 24, 21, 18, 15, 13, 11, 9, 7, 5, 3, 1];
const SAMPLES = 2;

/**
 * The scripted engine's experiment: a brand whose engine is a workspace's own OpenAI-compatible
 * endpoint, a fake vendor on 127.0.0.1 that names the brand in as many of each prompt's answers as
 * the script says. Two analyses of ten samples before the change (20 and 15 days ago), two after
 * (8 and 6 days ago): the treated prompts go from about 13% to 80%, the controls stay near 42%.
 */
const SCRIPTED = {
  brand: "Tailspin CRM",
  domain: "tailspin.example",
  samples: 10,
  before: [20, 15],
  after: [8, 6],
  /** Per prompt, the answers naming the brand in each analysis (of `samples`). */
  mentions: {
    [PROMPTS[0] as string]: [1, 2, 9, 9],
    [PROMPTS[1] as string]: [2, 1, 8, 8],
    [PROMPTS[2] as string]: [1, 1, 7, 7],
    [PROMPTS[3] as string]: [4, 4, 4, 4],
    [PROMPTS[4] as string]: [3, 4, 5, 5],
    [PROMPTS[5] as string]: [5, 5, 4, 4],
  } as Record<string, number[]>,
} as const;

/** The difference in differences the script makes, worked out by hand: treated prompts' mean change minus the controls'. */
function scriptedEffect(): number {
  const before = SCRIPTED.before.length;
  const change = (prompt: string) => {
    const rounds = SCRIPTED.mentions[prompt] ?? [];
    const share = (part: number[]) => part.reduce((a, b) => a + b, 0) / (part.length * SCRIPTED.samples);
    return share(rounds.slice(before)) - share(rounds.slice(0, before));
  };
  const mean = (prompts: string[]) => prompts.reduce((sum, p) => sum + change(p), 0) / prompts.length;
  return mean(TREATED) - mean(PROMPTS.slice(TREATED.length));
}

/** A share of answers as a group's line reads ("13%"); the scripted shares are all 10% or more. */
const percent = (share: number) => `${Math.round(share * 100)}%`;
/** A difference in points as the dashboard writes it: "+65 pts", "−3.3 pts". */
function points(delta: number): string {
  const scaled = delta * 100;
  const rounded = Math.abs(scaled) < 10 ? Math.round(scaled * 10) / 10 : Math.round(scaled);
  if (rounded === 0) return "±0 pts";
  return `${rounded > 0 ? "+" : "\u2212"}${Math.abs(rounded)} pts`;
}

/** Painted marks of a chart (as the traffic test counts them): shapes with an area, not its grid or axes. */
function chartMarks(card: Locator): Promise<number> {
  return card
    .locator("[role=img] svg")
    .first()
    .evaluate((svg) => {
      let count = 0;
      for (const el of svg.querySelectorAll("path, rect")) {
        if (el.closest(".recharts-cartesian-grid, .recharts-cartesian-axis, .recharts-tooltip-cursor")) continue;
        const box = (el as unknown as { getBBox(): { width: number; height: number } }).getBBox();
        if (box.width > 0 && box.height > 0) count++;
      }
      return count;
    });
}

/**
 * Analyses of a brand run as the worker runs them (its job handler, with the experiments' hook that
 * settles results when an analysis finishes), each on a clock set back to its own day: the answers
 * are the engines' and measured as any, only their dates are the test's. In the test's process,
 * against the installation's database.
 */
async function runAnalysesAt(
  installation: Installation,
  workspaceId: string,
  brandId: string,
  daysAgo: readonly number[],
  samples: number,
  now: number,
): Promise<void> {
  const clock = new ManualClock(now);
  const runtime = await createRuntime(
    // Private addresses allowed, as the installation: a custom engine answers from 127.0.0.1.
    { database: installation.database, secretKeys: [TEST_SECRET_KEY], webhookAllowPrivate: true },
    createLogger("silent"),
    { migrate: false, clock },
  );
  try {
    const ctx = await workspaceContext(runtime.deps, workspaceId);
    const run = runAnalysisHandler(runtime.deps, [settleExperiments]);
    for (const days of daysAgo) {
      clock.set(now - days * DAY);
      const analysis = await createAnalysis(ctx, { project_id: brandId, samples });
      const outcome = await run({
        id: `seed-${analysis.id}`,
        kind: "analysis.run",
        payload: { analysis_id: analysis.id },
        attempt: 1,
        maxAttempts: 1,
        createdAt: clock.now().toISOString(),
      });
      expect(outcome).toEqual({ status: "succeeded" });
    }
  } finally {
    await runtime.close();
  }
}

/**
 * Issue 27's experiments in a real Chromium against `sightline serve`: a brand of six prompts whose
 * sandbox analyses ran over the last five weeks (each at its own time, through the server's own
 * analysis job on a moved clock), so that a change ten days ago has answers on both sides. A change
 * is recorded through the form (the client's checks, then the server's on the pages' field, then
 * chosen treated prompts), listed, and opened: the result card in words, the effect with its
 * interval, treated against control with the change marked, the plan; its extra samples are
 * scheduled and show in Monitoring with their alert rule. The Overview's chart marks the change.
 * "I did this" on an opportunity opens the form prefilled, and records a change with the
 * opportunity's prompts. A finished result comes from an engine the test scripts: a workspace's own
 * OpenAI-compatible engine answering from a fake vendor, whose answers after the change name the
 * brand far more on the treated prompts; the analysis that brings the planned answers in settles it
 * (the worker's hook), and its page and the list show it as the API does. At 1280 and 390 px, light
 * and dark, axe clean, only 127.0.0.1 asked.
 */
describe("experiments in a browser", () => {
  let browser: Browser;
  let installation: Installation;
  let session: Session;
  let workspaceId: string;
  let brandId: string;
  const contexts: BrowserContext[] = [];
  const now = Date.now();

  const shot = (page: Page, name: string) => screenshot(page, `experiments-${name}`);
  const brandUrl = (path = "") => `${installation.base}/w/${workspaceId}/brands/${brandId}${path}`;
  const v1 = <T>(method: string, path: string, body?: unknown) =>
    appCall<T>(installation, session, method, `/workspaces/${workspaceId}/v1${path}`, body);

  async function open(width: number) {
    const opened = await sessionPage(browser, installation, session, { ...OPTIONS, viewport: { width, height: 900 } });
    contexts.push(opened.context);
    return opened;
  }

  /** axe, the screen's width and a screenshot at each width, back at the first one after. */
  async function fits(page: Page, name: string, widths: readonly number[] = [1280, 390]) {
    const first = page.viewportSize()?.width ?? 1280;
    for (const width of widths) {
      await page.setViewportSize({ width, height: 900 });
      await page.mouse.move(0, 0);
      if (Number(await page.evaluate("document.documentElement.scrollWidth")) > width) {
        console.log(
          `experiments ${name} at ${width} px is wider than the screen:`,
          await page.evaluate(`[...document.querySelectorAll("body *")]
            .filter((el) => el.getBoundingClientRect().right > ${width} + 1)
            .slice(-3)
            .map((el) => el.tagName + "." + String(el.className).slice(0, 60))`),
        );
      }
      await expectNoSidewaysScroll(page, width, `experiments ${name}`);
      await expectAccessible(page, `experiments ${name} at ${width} px`);
      await shot(page, `${name}-${width}`);
    }
    await page.setViewportSize({ width: first, height: 900 });
  }

  beforeAll(async () => {
    [browser, installation] = await Promise.all([
      launchChromium(),
      // Without the worker: the seeded analyses are run here, on a moved clock, and nothing else runs.
      // Private addresses allowed: a workspace's own engine answers from a fake vendor on 127.0.0.1.
      startInstallation("sqlite", { SIGHTLINE_WEBHOOK_ALLOW_PRIVATE: "true" }, "serve"),
    ]);
    ({ session, workspaceId } = await signUp(installation, OWNER, { workspace_name: "Northwind marketing" }));
    ({ id: brandId } = await v1<{ id: string }>("POST", "/projects", {
      name: "Northwind CRM",
      primary_domain: DOMAIN,
      competitors: [
        { name: "Contoso Sales", domains: ["contoso.example"] },
        { name: "Fabrikam Desk", domains: ["fabrikam.example"] },
      ],
      prompts: PROMPTS,
      engines: ["sandbox"],
    }));
    // The sandbox's analyses as the worker runs them (the same job handler), each at its own time in
    // the past: the answers are the sandbox's and measured as any, only their dates are the test's.
    await runAnalysesAt(installation, workspaceId, brandId, ANALYSES_DAYS_AGO, SAMPLES, now);
  }, 180_000);

  afterEach(async () => {
    for (const context of contexts.splice(0)) await context.close();
  });

  afterAll(async () => {
    await browser?.close();
    await installation?.stop();
    console.log(`screenshots in ${SCREENSHOTS}`);
  });

  it("records a change through the form, shows its result, chart and plan, schedules its samples and marks it on the charts", async () => {
    const { page, problems } = await open(1280);
    await page.goto(brandUrl("/experiments"));
    const tab = page.getByRole("navigation", { name: "Brand" }).getByRole("link", { name: "Experiments" });
    await tab.waitFor();
    expect(await tab.getAttribute("class")).toContain("bg-accent");
    await page.getByText("No changes recorded yet").waitFor();
    await fits(page, "empty");

    // The form: its own checks first.
    await page.getByRole("button", { name: "Record a change" }).click();
    const dialog = page.getByRole("dialog", { name: "Record a change" });
    await dialog.getByLabel("When").waitFor();
    expect(await dialog.getByLabel("Let Sightline propose the treated prompts").isChecked()).toBe(true);
    expect(await dialog.getByLabel("Compare with all the other prompts").isChecked()).toBe(true);
    // Empty: Sightline chooses (10 points, or the smallest the prompts can show).
    const effectField = dialog.getByLabel("Effect to detect (points)");
    expect(await effectField.inputValue()).toBe("");
    expect(await effectField.getAttribute("placeholder")).toBe("Let Sightline choose");
    await dialog.getByRole("button", { name: "Record the change" }).click();
    await dialog.getByText("Say what was changed").waitFor();
    await dialog.getByLabel("What did you change?").fill("Rewrote the pricing page");
    const changedAt = new Date(now - CHANGE_DAYS_AGO * DAY).toISOString().slice(0, 16);
    await dialog.getByLabel("When").fill(changedAt);
    // A page on another domain: the server's check, shown on the field.
    await dialog.getByLabel("Changed pages (optional)").fill("https://elsewhere.example/pricing");
    await dialog.getByLabel("Let Sightline propose the treated prompts").click();
    const treated = dialog.getByRole("group", { name: "Treated prompts: those the change should move" });
    await treated.getByLabel(TREATED[0] as string, { exact: true }).click();
    await dialog.getByRole("button", { name: "Record the change" }).click();
    await dialog.getByText("Choose at least 2 treated prompts.").waitFor();
    for (const prompt of TREATED.slice(1)) await treated.getByLabel(prompt, { exact: true }).click();
    await dialog.getByRole("button", { name: "Record the change" }).click();
    await dialog.getByText(/Line 1 is not on one of the brand's domains/).waitFor();
    await expectAccessible(page, "the form with the server's error");
    await shot(page, "form-errors-1280");
    await dialog.getByLabel("Changed pages (optional)").fill(`https://${DOMAIN}/pricing`);
    // With six prompts, 10 points cannot show however many answers are asked (the plan would say
    // "more prompts are needed"); 25 can.
    await dialog.getByLabel("Effect to detect (points)").fill("25");
    await dialog.getByRole("button", { name: "Record the change" }).click();

    // The change's page.
    await page.waitForURL(/\/experiments\/chg_/);
    const changeId = page.url().split("/").pop() ?? "";
    const change = await v1<{
      status: string;
      summary: string;
      prompts: string[];
      visibility: { overall: { status: string } };
    }>("GET", `/projects/${brandId}/changes/${changeId}`);
    expect(change.prompts).toEqual(TREATED);
    expect(change.visibility.overall.status).toBe("estimate");
    const result = page.getByRole("region", { name: /^Did it work\?/ });
    await result.getByText(change.summary, { exact: true }).waitFor();
    await result
      .getByText(/pts \(95% interval .* pts\)/)
      .first()
      .waitFor();
    await result
      .getByText(/^p [=<] 0\.\d{3}/)
      .first()
      .waitFor();
    await result.getByText(/^Pre-trend check/).waitFor();
    await result.getByRole("button", { name: "About Effect" }).first().waitFor();
    const chart = page.getByRole("region", { name: "Treated against control, per day", exact: true });
    // Two lines drawn, with a dot for each day of answers on each side.
    await expect.poll(() => chartMarks(chart), { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
    expect(await chart.locator("svg .recharts-line-dots circle").count()).toBeGreaterThanOrEqual(
      2 * ANALYSES_DAYS_AGO.length,
    );
    expect(await chart.locator("svg .change-marker").count()).toBe(1);
    expect(await chart.locator("svg .change-marker title").textContent()).toContain("Rewrote the pricing page");
    const engines = page.getByRole("region", { name: "Effect by engine", exact: true });
    await engines.getByRole("cell", { name: "Sandbox (offline)", exact: true }).waitFor();
    const plan = page.getByRole("region", { name: "Sample plan", exact: true });
    await plan
      .getByText(/answers per prompt and engine/)
      .first()
      .waitFor();
    await plan
      .getByText(/credits/)
      .first()
      .waitFor();
    await page
      .getByRole("region", { name: "What is compared", exact: true })
      .getByText(TREATED[2] as string)
      .waitFor();
    await fits(page, "change");

    // The extra samples, scheduled daily.
    expect(change.status).toBe("collecting");
    await plan.getByRole("button", { name: "Schedule the extra samples" }).click();
    const schedule = page.getByRole("dialog", { name: "Schedule the extra samples" });
    expect(await schedule.getByLabel("Time of day").inputValue()).toBe("09:00");
    await expectAccessible(page, "the schedule dialog");
    await schedule.getByRole("button", { name: "Schedule daily" }).click();
    await plan.getByText(/The extra samples are scheduled daily/).waitFor();
    expect(await plan.getByRole("button", { name: "Schedule the extra samples" }).count()).toBe(0);
    const scheduled = await v1<{ plan: { schedule_id: string | null } }>(
      "GET",
      `/projects/${brandId}/changes/${changeId}`,
    );
    expect(scheduled.plan.schedule_id).toMatch(/^mon_|^sch_|\w+/);
    await plan.scrollIntoViewIfNeeded();
    await shot(page, "scheduled-1280");
    await plan.getByRole("link", { name: "See it in Monitoring" }).click();
    await page.waitForURL(/\/monitoring$/);
    await page.getByText("An experiment's result is ready").first().waitFor();

    // The list: its status, date, title and sentence.
    await page.getByRole("navigation", { name: "Brand" }).getByRole("link", { name: "Experiments" }).click();
    const list = page.getByRole("list", { name: "Changes" });
    const item = list.getByRole("listitem").filter({ hasText: "Rewrote the pricing page" });
    await item.getByText("Collecting", { exact: true }).waitFor();
    await item.getByText(/^Collecting: /).waitFor();
    await item.locator("time").waitFor();
    await fits(page, "list");

    // The Overview's chart marks the change, named on hover and in a link under it.
    await page.getByRole("navigation", { name: "Brand" }).getByRole("link", { name: "Overview" }).click();
    const visibility = page.getByRole("region", { name: "Visibility over time", exact: true });
    await visibility.locator("svg .change-marker").first().waitFor({ timeout: 15_000 });
    expect(await visibility.locator("svg .change-marker title").first().textContent()).toContain(
      "Rewrote the pricing page",
    );
    await visibility
      .getByRole("list", { name: "Changes marked on the chart" })
      .getByRole("link", { name: "Rewrote the pricing page" })
      .waitFor();
    expect(await visibility.locator("[role=img]").getAttribute("aria-label")).toContain(
      "Marked: Rewrote the pricing page",
    );
    await visibility.scrollIntoViewIfNeeded();
    await visibility.screenshot({ path: `${SCREENSHOTS}/experiments-overview-marker-1280.png` });

    // Dark mode, as the rest of the app.
    await page.goto(brandUrl(`/experiments/${changeId}`));
    await page.emulateMedia({ colorScheme: "dark" });
    await expect.poll(() => page.evaluate("document.documentElement.classList.contains('dark')")).toBe(true);
    await page.getByRole("region", { name: /^Did it work\?/ }).waitFor();
    await fits(page, "change-dark");
    // The one 400 is the server's answer to the page on another domain, shown on its field.
    expect(problems.filter((p) => !/status of 400/.test(p))).toEqual([]);
  }, 180_000);

  it("records what an opportunity asked for with “I did this”", async () => {
    const { page, problems } = await open(390);
    const { data: opportunities } = await v1<{ data: { id: string; title: string; prompts: string[] }[] }>(
      "GET",
      `/projects/${brandId}/opportunities?limit=100`,
    );
    expect(opportunities.length).toBeGreaterThan(0);
    // One whose prompts leave two to compare them with; the first otherwise.
    const comparable = (o: { prompts: string[] }) => o.prompts.length >= 2 && o.prompts.length <= PROMPTS.length - 2;
    const chosen = opportunities.find(comparable) ?? opportunities[0];
    if (chosen === undefined) throw new Error("no opportunity");
    await page.goto(brandUrl("/opportunities"));
    const card = page
      .getByRole("list", { name: "Opportunities" })
      .getByRole("listitem")
      .filter({ has: page.getByRole("heading", { name: chosen.title, exact: true }) })
      .first();
    await card.getByRole("button", { name: /^I did this/ }).click();
    const dialog = page.getByRole("dialog", { name: "Record a change" });
    expect(await dialog.getByLabel("What did you change?").inputValue()).toBe(chosen.title);
    expect(await dialog.getByLabel("Treat the opportunity's prompts").isChecked()).toBe(true);
    await fits(page, "i-did-this", [390, 1280]);
    await dialog.getByRole("button", { name: "Record the change" }).click();
    if (comparable(chosen)) {
      await page.waitForURL(/\/experiments\/chg_/);
      const setup = page.getByRole("region", { name: "What is compared", exact: true });
      await setup.getByText("The treated prompts are those of the opportunity acted on.").waitFor();
      for (const prompt of chosen.prompts) await setup.getByText(prompt, { exact: true }).first().waitFor();
      await page.getByRole("region", { name: /^Did it work\?/ }).waitFor();
      await fits(page, "from-opportunity", [390]);
      // Deleted, it leaves the list.
      await setup.getByRole("button", { name: "Delete" }).click();
      await page.getByRole("alertdialog").getByRole("button", { name: "Delete the change" }).click();
      await page.waitForURL(/\/experiments$/);
      await page.getByRole("list", { name: "Changes" }).waitFor();
      expect(await page.getByRole("link", { name: chosen.title, exact: true }).count()).toBe(0);
    } else {
      // Too few prompts left to compare with, or too few of its own: the server says so on the form.
      await dialog
        .getByText(/needs at least 2|too few/i)
        .first()
        .waitFor();
    }
    expect(problems.filter((p) => !/status of 400/.test(p))).toEqual([]);
  }, 120_000);

  it("shows a finished result, settled when the answers after the change are in, from an engine the test scripts", async () => {
    const engine = await startScriptedEngine({
      perRound: SCRIPTED.samples,
      mentions: SCRIPTED.mentions,
      named: `${SCRIPTED.brand} is the one most reviewers recommend here; Contoso Sales comes second.`,
      unnamed: "Most reviewers recommend Contoso Sales here; Fabrikam Desk comes second.",
    });
    try {
      // A workspace of its own, with its own engine: the workspace's OpenAI-compatible endpoint.
      const { id: ws } = await appCall<{ id: string }>(installation, session, "POST", "/workspaces", {
        name: "Tailspin marketing",
      });
      const call = <T>(method: string, path: string, body?: unknown) =>
        appCall<T>(installation, session, method, `/workspaces/${ws}${path}`, body);
      await call("POST", "/engines", {
        name: "house_llm",
        title: "House LLM",
        base_url: engine.url,
        model: "llama3.1",
      });
      const { id: brand } = await call<{ id: string }>("POST", "/v1/projects", {
        name: SCRIPTED.brand,
        primary_domain: SCRIPTED.domain,
        competitors: [{ name: "Contoso Sales", domains: ["contoso.example"] }],
        prompts: PROMPTS,
        engines: ["house_llm"],
      });
      await runAnalysesAt(installation, ws, brand, SCRIPTED.before, SCRIPTED.samples, now);

      // The change, recorded through the form ten days ago: three treated prompts, the other three
      // as controls, planned for 50 points (17 answers per prompt each side: 102 after it).
      const { page, problems } = await open(1280);
      await page.goto(`${installation.base}/w/${ws}/brands/${brand}/experiments`);
      await page.getByRole("button", { name: "Record a change" }).click();
      const dialog = page.getByRole("dialog", { name: "Record a change" });
      await dialog.getByLabel("What did you change?").fill("Published a comparison page");
      await dialog.getByLabel("When").fill(new Date(now - CHANGE_DAYS_AGO * DAY).toISOString().slice(0, 16));
      await dialog.getByLabel("Let Sightline propose the treated prompts").click();
      const treated = dialog.getByRole("group", { name: "Treated prompts: those the change should move" });
      for (const prompt of TREATED) await treated.getByLabel(prompt, { exact: true }).click();
      await dialog.getByLabel("Effect to detect (points)").fill("50");
      await dialog.getByRole("button", { name: "Record the change" }).click();
      await page.waitForURL(/\/experiments\/chg_/);
      const changeId = page.url().split("/").pop() ?? "";
      const path = `/v1/projects/${brand}/changes/${changeId}`;
      type Effect = {
        status: string;
        effect: number | null;
        ci_low: number | null;
        ci_high: number | null;
        p_value: number | null;
        answers: number;
        treated: { before: number | null; after: number | null };
        control: { before: number | null; after: number | null };
      };
      type ChangeBody = {
        status: string;
        summary: string;
        result_at: string | null;
        prompts: string[];
        control_prompts: string[];
        engines: string[];
        visibility: { overall: Effect };
        pre_trend: { diverging: boolean } | null;
        plan: { answers_per_prompt: number | null; after: { answers: number; needed: number } };
      };
      const recorded = await call<ChangeBody>("GET", path);
      expect(recorded).toMatchObject({
        status: "collecting",
        result_at: null,
        prompts: TREATED,
        control_prompts: PROMPTS.slice(TREATED.length),
        engines: ["house_llm"],
      });
      // One analysis after the change is too few for the plan, two are enough.
      const perAnalysis = PROMPTS.length * SCRIPTED.samples;
      expect(recorded.plan.after.needed).toBeGreaterThan(perAnalysis);
      expect(recorded.plan.after.needed).toBeLessThanOrEqual(perAnalysis * SCRIPTED.after.length);
      const result = page.getByRole("region", { name: /^Did it work\?/ });
      await result.locator("[data-slot=badge]").getByText("Collecting", { exact: true }).waitFor();
      await result.getByText(recorded.summary, { exact: true }).waitFor();
      await shot(page, "scripted-collecting-1280");

      // The analyses after it, as the worker runs them: the second one's finishing settles the result.
      await runAnalysesAt(installation, ws, brand, SCRIPTED.after, SCRIPTED.samples, now);
      for (const prompt of PROMPTS) expect(engine.asked.get(prompt)).toBe(4 * SCRIPTED.samples);
      const change = await call<ChangeBody>("GET", path);
      const settledAt = new Date(now - (SCRIPTED.after.at(-1) ?? 0) * DAY).toISOString();
      expect(change.status).toBe("result");
      expect(change.result_at).toBe(settledAt);
      expect(change.pre_trend?.diverging).toBe(false);
      const overall = change.visibility.overall;
      expect(overall).toMatchObject({
        status: "estimate",
        answers: 4 * perAnalysis,
        treated: { before: 0.1333, after: 0.8 },
        control: { before: 0.4167, after: 0.4333 },
      });
      expect(overall.effect).toBeCloseTo(scriptedEffect(), 4);
      const { effect, ci_low: low, ci_high: high, p_value: p } = overall;
      if (effect === null || low === null || high === null || p === null) throw new Error("no estimate");
      expect(low).toBeGreaterThan(0);
      expect(high).toBeGreaterThan(effect);
      expect(p).toBeLessThan(0.05);
      const effectText = `${points(effect)} (95% interval ${points(low).replace(/ pts$/, "")} to ${points(high)})`;
      const pText = p < 0.001 ? "p < 0.001" : `p = ${p.toFixed(3)}`;
      console.log(`scripted experiment: ${effectText}, ${pText}; ${change.summary}`);

      // Its page, read again: the result card in words and figures, each as the API gives it.
      await page.reload();
      await result.locator("[data-slot=badge]").getByText("Result", { exact: true }).waitFor();
      await result
        .getByText("The effect is statistically real (p < 0.05), with the answers planned in and no pre-trend.")
        .waitFor();
      await result.getByText(change.summary, { exact: true }).waitFor();
      expect(change.summary).toContain(
        `(95% interval ${points(low).replace(/ pts$/, "")} to ${points(high)}); ${pText}; no pre-trend.`,
      );
      await result.getByText(effectText, { exact: true }).waitFor();
      await result
        .getByText(
          `${pText} · 3 treated prompts and 3 control prompts answered on both sides, ${overall.answers} answers`,
          {
            exact: true,
          },
        )
        .waitFor();
      await result.getByText("Treated prompts: 13% before, 80% after", { exact: true }).waitFor();
      await result
        .getByText(`Control prompts: ${percent(0.4167)} before, ${percent(0.4333)} after`, { exact: true })
        .waitFor();
      await result.getByText(/^Pre-trend check passed/).waitFor();
      const engines = page.getByRole("region", { name: "Effect by engine", exact: true });
      await engines.getByText(effectText, { exact: true }).waitFor();
      await fits(page, "scripted-result");

      // The list: the change with its "Result" badge and the same sentence.
      await page.getByRole("navigation", { name: "Brand" }).getByRole("link", { name: "Experiments" }).click();
      const item = page
        .getByRole("list", { name: "Changes" })
        .getByRole("listitem")
        .filter({ hasText: "Published a comparison page" });
      await item.locator("[data-slot=badge]").getByText("Result", { exact: true }).waitFor();
      await item.getByText(change.summary, { exact: true }).waitFor();
      await fits(page, "scripted-list");
      expect(problems).toEqual([]);
    } finally {
      await engine.stop();
    }
  }, 180_000);
});
