import type { Browser, Locator } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { expectAccessible, launchChromium, SCREENSHOTS, screenshot } from "../../../server/test/helpers/browser.ts";
import { DIALECTS } from "../../../server/test/helpers/databases.ts";
import { type FakeChatCompletions, startFakeChatCompletions } from "../../../server/test/helpers/fake-vendors/index.ts";
import { Site } from "../../../server/test/helpers/website.ts";
import {
  appCall,
  type Installation,
  openPage,
  type Session,
  type SignedInPage,
  signIn,
  startInstallation,
} from "./installation.ts";
import { expectNoSidewaysScroll } from "./screens.ts";

const WIDTHS = [1280, 390] as const;
const DESK = { viewport: { width: 1280, height: 900 }, locale: "en-US", reducedMotion: "reduce" } as const;
const OWNER = { name: "Léa Martin", email: "lea@brightdesk.example.com", password: "a long pass phrase for lea 7" };
const BRAND = "Brightdesk";
const DOMAIN = "brightdesk.example.com";
const ENGINE = "House Llama";
/** What the house engine answers every question: it names the competitors, never the brand. */
const ENGINE_ANSWER = "Small support teams mostly choose Zendesk or Freshdesk for their help desk.";
const PROMPT = "Which help desk has the best Slack integration?";

const HOME = `<!doctype html><html lang="en-GB"><head><title>Brightdesk | Help desk software for small teams</title>
<meta property="og:site_name" content="Brightdesk">
<meta name="description" content="Brightdesk is a help desk for small support teams that answer customers by e-mail and chat.">
</head><body><h1>Every customer question in one inbox</h1>
<p>Switching from Zendesk takes an afternoon. Brightdesk vs Freshdesk: see why small teams choose us.</p>
<a href="/about">About us</a> <a href="/pricing">Pricing</a></body></html>`;
const ABOUT = `<html lang="en-GB"><body><h1>About Brightdesk</h1><p>Founded in 2019 and headquartered in Lyon, France.</p></body></html>`;
const PRICING = `<html lang="en-GB"><body><h1>Pricing</h1><ul><li>Free plan for up to 3 agents</li><li>Team — €19 per month</li></ul></body></html>`;

/**
 * Issue 23's acceptance, "the first day", in a real Chromium against `sightline all` on a fresh
 * database of each dialect, as a newcomer does it, every step in the app: sign up; add the brand
 * from its (local) website, each suggestion with its source; connect an OpenAI-compatible engine
 * (a local fake vendor) in Settings → Engines and test it, ChatGPT marked as having no key; run an
 * analysis on that engine and the sandbox, ChatGPT disabled in the Run dialog with its reason and
 * the credits confirmed; a run whose answers partly failed in amber with the count; a prompt added,
 * paused and deleted; an alert acknowledged; the brand deleted with its name typed and restored with
 * every headline figure unchanged; dark mode. Every screen at 1280 and 390 px: axe without a serious
 * or critical violation, nothing to scroll sideways, no console error, a screenshot "first-day-…".
 *
 * The steps follow one another in one browser context (the account the first one makes); only the
 * monitoring schedule whose alert is acknowledged is made through the dashboard's API.
 */
describe.each(DIALECTS)("the first day [%s]", (dialect) => {
  let browser: Browser;
  let installation: Installation;
  let site: Site;
  let vendor: FakeChatCompletions;
  let desk: SignedInPage;
  /** The owner signed in through the API, for what the test reads or seeds besides the app. */
  let session: Session;
  let workspaceId = "";
  let brandId = "";
  let prompts: string[] = [];
  let started = 0;

  const page = () => desk.page;
  const api = <T>(method: string, path: string, body?: unknown) =>
    appCall<T>(installation, session, method, `/workspaces/${workspaceId}/v1${path}`, body);

  /**
   * The screen as it is now, at each width: axe, nothing wider than the screen, a screenshot; then
   * back to the desk's width.
   */
  async function screen(name: string): Promise<void> {
    for (const width of WIDTHS) {
      await page().setViewportSize({ width, height: 900 });
      await expectAccessible(page(), `${name} at ${width} px`);
      await expectNoSidewaysScroll(page(), width, name);
      await screenshot(page(), `first-day-${dialect}-${name}-${width}`);
    }
    await page().setViewportSize(DESK.viewport);
  }

  /** No console error since the last step's check. */
  function expectNoProblems(step: string) {
    expect(desk.problems.splice(0), `console errors during ${step}`).toEqual([]);
  }

  const workspaceNav = () => page().getByRole("navigation", { name: "Workspace" });
  const brandNav = () => page().getByRole("navigation", { name: "Brand" });
  const headline = () => page().getByRole("region", { name: "Headline figures" });

  /** Runs an analysis from the brand's header: the sandbox and the house engine, one sample; the cost confirmed. */
  async function runAnalysis(): Promise<void> {
    const p = page();
    await p.getByRole("button", { name: "Run analysis now" }).first().click();
    const dialog = p.getByRole("dialog");
    const chatgpt = dialog.getByRole("checkbox", { name: "ChatGPT", exact: true });
    // An engine without a key is there, disabled, saying why; ready engines come first.
    expect(await chatgpt.isDisabled()).toBe(true);
    expect(await chatgpt.getAttribute("aria-describedby")).not.toBeNull();
    const note = dialog.locator(`[id="${await chatgpt.getAttribute("aria-describedby")}"]`);
    expect(await note.textContent()).toBe("No key yet");
    const labels = await dialog.locator("fieldset").first().locator("label").allTextContents();
    expect(labels.indexOf(ENGINE)).toBeGreaterThanOrEqual(0);
    expect(labels.indexOf(ENGINE)).toBeLessThan(labels.indexOf("ChatGPT"));
    expect(await dialog.getByRole("checkbox", { name: "Sandbox (offline)" }).isChecked()).toBe(true);
    await dialog.getByRole("checkbox", { name: ENGINE }).click();
    await dialog.getByLabel("Samples").fill("1");
    const answers = prompts.length * 2;
    await dialog.getByText(`= ${answers} answers`).waitFor();
    return confirmRun(dialog, answers);
  }

  async function confirmRun(dialog: Locator, answers: number): Promise<void> {
    const p = page();
    await dialog.getByRole("button", { name: "Start analysis" }).click();
    // The cost is said and confirmed before anything is spent.
    await dialog.getByRole("heading", { name: `Spend ${answers} credits?` }).waitFor();
    await dialog.getByText(new RegExp(`^${answers} credits of the [\\d,]+ left this month`)).waitFor();
    await dialog.getByRole("button", { name: `Spend ${answers} credits and start` }).click();
    await p.waitForURL(/\/analyses\/ana_[^/?]+/);
  }

  beforeAll(async () => {
    started = Date.now();
    site = await new Site().start();
    site.pages.set("/", { body: HOME });
    site.pages.set("/about", { body: ABOUT });
    site.pages.set("/pricing", { body: PRICING });
    vendor = await startFakeChatCompletions({ flavour: "plain" });
    vendor.setAnswer({ text: ENGINE_ANSWER, citations: [] });
    [browser, installation] = await Promise.all([
      launchChromium(),
      // Private addresses allowed, as in development: the website and the vendor are local.
      startInstallation(dialect, { SIGHTLINE_WEBHOOK_ALLOW_PRIVATE: "true" }),
    ]);
    desk = await openPage(browser, DESK);
  }, 120_000);

  // One flow: a step that failed leaves nothing for the next ones to start from.
  let broken = false;
  beforeEach(({ skip }) => {
    if (broken) skip();
  });

  afterEach(async ({ task }) => {
    if (task.result?.state === "fail") {
      broken = true;
      await screenshot(page(), `first-day-${dialect}-failed`).catch(() => undefined);
      console.log(`server output (${dialect}):\n${installation?.server.output().slice(-6000)}`);
    }
  });

  afterAll(async () => {
    await desk?.context.close();
    await browser?.close();
    await installation?.stop();
    await vendor?.stop();
    await site?.stop();
    console.log(
      `first day (${dialect}): ${Math.round((Date.now() - started) / 1000)} s, screenshots in ${SCREENSHOTS}`,
    );
  });

  it("signs up and adds the brand from its website: the suggestions with their sources, accepted, saved", async () => {
    const p = page();
    await p.goto(`${installation.base}/`);
    await p.waitForURL(/\/setup$/);
    await p.getByLabel("Setup code").waitFor();
    await screen("01-setup");
    await p.getByLabel("Setup code").fill(await installation.server.setupCode());
    await p.getByLabel("Your name").fill(OWNER.name);
    await p.getByLabel("Work e-mail").fill(OWNER.email);
    await p.getByLabel("Password", { exact: true }).fill(OWNER.password);
    await p.getByLabel("Workspace name").fill("Brightdesk marketing");
    await p.getByRole("button", { name: "Create account" }).click();
    await p.waitForURL(/\/w\/ws_[^/]+$/);
    workspaceId = /\/w\/(ws_[^/]+)$/.exec(p.url())?.[1] ?? "";
    session = await signIn(installation, OWNER);
    await p.getByText("No brands yet").waitFor();
    await screen("02-brands-empty");

    await p.getByRole("link", { name: "Add brand" }).first().click();
    await p.getByLabel("Website address").waitFor();
    await screen("03-add-brand-website");
    await p.getByLabel("Website address").fill(site.url);
    await p.getByRole("button", { name: "Suggest" }).click();
    const review = p.getByRole("region", { name: "Suggestions from the website" });
    await review.waitFor();
    // The name, and facts, each with the page they were read from, as a link to it.
    const row = (label: string) =>
      review.locator("dl > div").filter({ has: p.locator("dt").getByText(label, { exact: true }) });
    await row("Name").getByText(BRAND, { exact: true }).waitFor();
    expect(await row("Name").getByRole("link").getAttribute("href")).toMatch(new RegExp(`^${site.url}/?$`));
    await row("Founded").getByText("2019", { exact: true }).waitFor();
    expect(await row("Founded").getByRole("link").getAttribute("href")).toBe(`${site.url}/about`);
    expect(await row("Headquarters").getByRole("link").getAttribute("href")).toBe(`${site.url}/about`);
    expect(await row("Free plan").getByRole("link").getAttribute("href")).toBe(`${site.url}/pricing`);
    // The two competitors the home page names, each from that page, ticked.
    for (const rival of ["Zendesk", "Freshdesk"]) {
      const box = review.getByRole("checkbox", { name: rival, exact: true });
      expect(await box.isChecked()).toBe(true);
      const item = review.getByRole("listitem").filter({ has: p.getByRole("checkbox", { name: rival, exact: true }) });
      expect(await item.getByRole("link").getAttribute("href")).toMatch(new RegExp(`^${site.url}/?$`));
    }
    // 10 to 20 prompts across the funnel, said once to be simulated by the sandbox.
    const promptBoxes = review.locator('section[aria-labelledby="suggested-prompts"] [role="checkbox"]');
    expect(await promptBoxes.count()).toBeGreaterThanOrEqual(10);
    expect(await promptBoxes.count()).toBeLessThanOrEqual(20);
    await screen("04-suggestions");

    await review.getByRole("button", { name: "Use these suggestions" }).click();
    await p.getByText("Filled in from the suggestions you kept").waitFor();
    expect(await p.getByLabel("Brand name").inputValue()).toBe(BRAND);
    await screen("05-form-prefilled");
    // The local site answers at an IP address, which a brand's domain cannot be: corrected by hand.
    await p.getByLabel("Primary domain").fill(DOMAIN);
    await p.getByRole("button", { name: "Add brand" }).click();
    await p.waitForURL(/\/brands\/prj_[^/?]+(\?.*)?$/);
    brandId = /\/brands\/(prj_[^/?]+)/.exec(p.url())?.[1] ?? "";
    await p.getByRole("heading", { name: BRAND, level: 1 }).waitFor();
    await p.getByRole("button", { name: "Run analysis now" }).first().waitFor();
    await screen("06-brand-new");

    const project = await api<{
      name: string;
      primary_domain: string;
      competitors: { name: string }[];
      prompts: string[];
      engines: string[];
      facts: Record<string, unknown>;
    }>("GET", `/projects/${brandId}`);
    expect(project).toMatchObject({
      name: BRAND,
      primary_domain: DOMAIN,
      engines: ["sandbox"],
      facts: { founded_year: 2019, headquarters: "Lyon, France", free_plan: true },
    });
    expect(project.competitors.map((c) => c.name).slice(0, 2)).toEqual(["Zendesk", "Freshdesk"]);
    prompts = project.prompts;
    expect(prompts.length).toBeGreaterThanOrEqual(10);
    expectNoProblems("sign-up and adding the brand");
  }, 120_000);

  it("connects an OpenAI-compatible engine in Settings → Engines, whose test shows its answer; ChatGPT has no key", async () => {
    const p = page();
    await workspaceNav().getByRole("link", { name: "Settings" }).click();
    await p.getByRole("navigation", { name: "Settings sections" }).getByRole("link", { name: "Engines" }).click();
    const card = p.locator("#engines");
    const item = (title: string) =>
      card.locator("li").filter({ has: p.getByRole("heading", { name: title, exact: true }) });
    await item("ChatGPT").getByText("No key", { exact: true }).waitFor();
    await item("ChatGPT").getByText("No key yet").waitFor();
    await screen("07-settings-engines");

    await card.getByRole("button", { name: "Add engine" }).click();
    const dialog = p.getByRole("dialog");
    await dialog.getByLabel("Name", { exact: true }).fill(ENGINE);
    await dialog.getByLabel("Base URL").fill(`${vendor.url}/v1`);
    await dialog.getByLabel("Model").fill("llama3.1");
    await screen("08-add-engine-dialog");
    await dialog.getByRole("button", { name: "Add engine" }).click();
    await dialog.waitFor({ state: "detached" });
    const house = item(ENGINE);
    await house.getByText("Your own endpoint, without a key").waitFor();

    const asked = vendor.requests.length;
    await house.getByRole("button", { name: `Test connection to ${ENGINE}` }).click();
    await house.getByText(`“${ENGINE_ANSWER}”`).waitFor();
    expect(vendor.requests.length).toBe(asked + 1);
    await house.getByText("Ready", { exact: true }).waitFor();
    await screen("09-engine-tested");
    expectNoProblems("Settings → Engines");
  }, 90_000);

  it("runs an analysis on that engine and the sandbox, ChatGPT disabled with its reason, and it completes", async () => {
    const p = page();
    await workspaceNav().getByRole("link", { name: "Brands" }).click();
    await p.getByRole("link", { name: BRAND, exact: true }).click();
    await p.getByRole("button", { name: "Run analysis now" }).first().waitFor();
    await p.getByRole("button", { name: "Run analysis now" }).first().click();
    const dialog = p.getByRole("dialog");
    await dialog.getByRole("checkbox", { name: ENGINE }).waitFor();
    await screen("10-run-dialog");
    await p.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    await runAnalysis();
    const title = p.locator("#analysis-title");
    await title.getByText("Completed", { exact: true }).waitFor({ timeout: 30_000 });
    expect(await title.getByText("Completed with failures").count()).toBe(0);
    await p.getByText(`${prompts.length * 2} succeeded`).waitFor();
    const asked = vendor.requests.filter((r) => r.path.endsWith("/chat/completions") && r.body !== null);
    expect(asked.length).toBeGreaterThanOrEqual(prompts.length + 1);
    await screen("11-analysis-completed");
    // The names the sandbox made up were left unticked when the brand was added: its answers name
    // them, so the Competitors page suggests them (discovery before any vendor key).
    await p.getByRole("link", { name: "Competitors", exact: true }).click();
    await p
      .getByRole("button", { name: /^Track .+ as a competitor$/ })
      .first()
      .waitFor();
    expectNoProblems("the first analysis");
  }, 90_000);

  it("shows a run whose answers partly failed in amber, with the count and the reason", async () => {
    const p = page();
    // The vendor now answers with nothing usable: every answer of the house engine fails, the sandbox's succeed.
    vendor.script("wrong_shape");
    try {
      await brandNav().getByRole("link", { name: "Overview" }).click();
      await runAnalysis();
      const title = p.locator("#analysis-title");
      const badge = title.getByText("Completed with failures", { exact: true });
      await badge.waitFor({ timeout: 30_000 });
      await p
        .getByText(`${prompts.length} of ${prompts.length * 2} answers failed`)
        .first()
        .waitFor();
      // Amber: the theme's warning colour, not the green of "Completed".
      const colour = await badge.evaluate((el) => el.ownerDocument.defaultView?.getComputedStyle(el).color);
      const warning = await p.evaluate(`(() => {
        const probe = document.createElement("span");
        probe.style.color = "var(--warning)";
        document.body.append(probe);
        const colour = getComputedStyle(probe).color;
        probe.remove();
        return colour;
      })()`);
      expect(colour).toBe(warning);
      await screen("12-analysis-partly-failed");
      // The analyses list says it too.
      await brandNav().getByRole("link", { name: "Analyses & reports" }).click();
      await p.getByText("Completed with failures", { exact: true }).first().waitFor();
      await p
        .getByText(`${prompts.length} of ${prompts.length * 2} answers failed`)
        .first()
        .waitFor();
      await screen("13-analyses-list");
    } finally {
      vendor.script("ok");
    }
    expectNoProblems("the partly failed run");
  }, 90_000);

  it("adds, pauses and deletes a prompt on the Prompts page", async () => {
    const p = page();
    await brandNav().getByRole("link", { name: "Prompts" }).click();
    const card = p.locator('section[aria-labelledby="tracked-prompts-title"]');
    await card.getByText(prompts[0] ?? "", { exact: true }).waitFor();
    await card.getByLabel("Add a prompt").fill(PROMPT);
    await card.getByRole("button", { name: "Add prompt" }).click();
    await card.getByText(PROMPT, { exact: true }).waitFor();
    await card.getByRole("switch", { name: `Ask “${PROMPT}” in analyses and monitoring` }).click();
    await card.getByText("Switched off", { exact: true }).waitFor();
    let project = await api<{ prompts: string[]; paused_prompts: string[] }>("GET", `/projects/${brandId}`);
    expect(project.prompts).toEqual([...prompts, PROMPT]);
    expect(project.paused_prompts).toEqual([PROMPT]);
    await screen("14-prompts-paused");
    await card.getByRole("button", { name: `Delete “${PROMPT}”` }).click();
    const confirm = p.getByRole("alertdialog");
    await confirm.getByRole("button", { name: "Delete prompt" }).waitFor();
    await screen("15-prompt-delete-confirm");
    await confirm.getByRole("button", { name: "Delete prompt" }).click();
    await confirm.waitFor({ state: "detached" });
    await expect.poll(() => card.getByText(PROMPT, { exact: true }).count()).toBe(0);
    project = await api("GET", `/projects/${brandId}`);
    expect(project.prompts).toEqual(prompts);
    expect(project.paused_prompts).toEqual([]);
    expectNoProblems("the Prompts page");
  }, 90_000);

  it("acknowledges an alert, and the navigation's count of open alerts goes away", async () => {
    const p = page();
    // Seeded: a schedule whose rule fires (the sandbox names the brand in about 70% of answers, so
    // visibility stays below 99% unless all of them name it), run once.
    const schedule = await api<{ id: string }>("POST", "/monitoring", {
      project_id: brandId,
      schedule: { every: "day", at: "08:30" },
      timezone: "Europe/Paris",
      samples: 2,
      alert_rules: [{ type: "visibility_below", threshold: 0.99 }],
    });
    await api("POST", `/monitoring/${schedule.id}/run`);
    await expect
      .poll(
        async () =>
          (await api<{ data: { status: string }[] }>("GET", `/monitoring/${schedule.id}/runs`)).data[0]?.status,
        { timeout: 30_000 },
      )
      .toBe("completed");
    await brandNav().getByRole("link", { name: "Overview" }).click();
    await p.reload();
    const bell = workspaceNav().getByRole("link", { name: "Open alerts 1" });
    await bell.waitFor();
    await bell.click();
    await p.waitForURL(/\/monitoring/);
    const alerts = p.locator('section[aria-labelledby="alerts-title"]');
    const acknowledge = alerts.getByRole("button", { name: /^Acknowledge alert: Visibility falls below 99%/ });
    await acknowledge.waitFor();
    await screen("16-monitoring-open-alert");
    await acknowledge.click();
    await alerts.getByText("No open alerts").waitFor();
    await bell.waitFor({ state: "detached" });
    expect(
      await workspaceNav()
        .getByRole("link", { name: /Open alerts/ })
        .count(),
    ).toBe(0);
    await alerts.getByRole("button", { name: "Acknowledged", exact: true }).click();
    await alerts.getByRole("button", { name: /^Reopen alert: Visibility falls below 99%/ }).waitFor();
    await screen("17-monitoring-acknowledged");
    expectNoProblems("acknowledging the alert");
  }, 90_000);

  it("deletes the brand with its name typed and restores it with every figure unchanged", async () => {
    const p = page();
    await brandNav().getByRole("link", { name: "Overview" }).click();
    await headline().getByText("Visibility", { exact: true }).waitFor();
    await expect.poll(async () => (await headline().textContent()) ?? "").toMatch(/\d+(\.\d+)?%/);
    const before = await headline().textContent();
    await screen("18-overview");

    await workspaceNav().getByRole("link", { name: "Brands" }).click();
    await p.getByRole("button", { name: `Delete ${BRAND}` }).click();
    const dialog = p.getByRole("dialog");
    const submit = dialog.getByRole("button", { name: "Delete brand" });
    expect(await submit.isDisabled()).toBe(true);
    await dialog.getByLabel(`Type “${BRAND}” to confirm`).fill(BRAND.toLowerCase());
    expect(await submit.isDisabled()).toBe(true);
    await dialog.getByLabel(`Type “${BRAND}” to confirm`).fill(BRAND);
    await screen("19-delete-brand-dialog");
    await submit.click();
    await dialog.waitFor({ state: "detached" });
    const deleted = p.locator('section[aria-labelledby="deleted-brands-title"]');
    await deleted.getByText(BRAND, { exact: true }).waitFor();
    await deleted.getByText(/purged on/).waitFor();
    expect(await p.getByRole("link", { name: BRAND, exact: true }).count()).toBe(0);
    await screen("20-deleted-brands");

    await deleted.getByRole("button", { name: `Restore ${BRAND}` }).click();
    await expect.poll(() => deleted.count()).toBe(0);
    await p.getByRole("link", { name: BRAND, exact: true }).click();
    await headline().getByText("Visibility", { exact: true }).waitFor();
    await expect.poll(async () => (await headline().textContent()) ?? "").toMatch(/\d+(\.\d+)?%/);
    expect(await headline().textContent()).toBe(before);
    // Its prompts, competitors and schedule came back with it.
    const project = await api<{ prompts: string[]; competitors: unknown[] }>("GET", `/projects/${brandId}`);
    expect(project.prompts).toEqual(prompts);
    expect(project.competitors.length).toBeGreaterThanOrEqual(2);
    expectNoProblems("deleting and restoring the brand");
  }, 90_000);

  it("switches to dark mode in the user menu: the Overview and Settings → Engines, accessible", async () => {
    const p = page();
    await p.getByRole("button", { name: `Account menu for ${OWNER.name}` }).click();
    await p.getByRole("menuitemradio", { name: "Dark" }).click();
    await expect.poll(() => p.evaluate("document.documentElement.classList.contains('dark')")).toBe(true);
    await p.keyboard.press("Escape");
    await headline().getByText("Visibility", { exact: true }).waitFor();
    await screen("21-dark-overview");
    await workspaceNav().getByRole("link", { name: "Settings" }).click();
    await p.getByRole("navigation", { name: "Settings sections" }).getByRole("link", { name: "Engines" }).click();
    await p.locator("#engines").getByRole("heading", { name: ENGINE }).waitFor();
    await screen("22-dark-settings-engines");
    // Chosen once, kept: a reload paints dark from the first frame.
    await p.reload();
    expect(await p.evaluate("document.documentElement.classList.contains('dark')")).toBe(true);
    expectNoProblems("dark mode");
  }, 90_000);
});
