import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createRuntime } from "../../../server/src/app/runtime.ts";
import { createLogger } from "../../../server/src/lib/logger.ts";
import { setCustomHost } from "../../../server/src/services/agencies/hosts.ts";
import { expectAccessible, launchChromium, SCREENSHOTS, screenshot } from "../../../server/test/helpers/browser.ts";
import { TEST_SECRET_KEY } from "../../../server/test/helpers/harness.ts";
import { Site } from "../../../server/test/helpers/website.ts";
import {
  appCall,
  type Installation,
  openPage,
  type Session,
  type SignedInPage,
  sessionPage,
  signUp,
  startInstallation,
} from "./installation.ts";
import { expectNoSidewaysScroll } from "./screens.ts";

const OWNER = { name: "Nora Reyes", email: "nora@northwind.example.com", password: "a long pass phrase for nora" };
const OPTIONS = { locale: "en-US", reducedMotion: "reduce", timezoneId: "UTC" } as const;
/** What the agency's clients see: its branding's name and main colour. */
const BRAND_NAME = "Northwind Partners";
const BRAND_COLOUR = "#0b7a4b";

/** The prospect's website, read by the pitch (the installation may read private addresses). */
const HOME = `<!doctype html><html lang="en-GB"><head><title>Contoso Roasters | The coffee subscription service for home baristas</title>
<meta property="og:site_name" content="Contoso Roasters">
<meta name="description" content="Contoso Roasters is a coffee subscription service for home baristas.">
</head><body><h1>Fresh coffee, roasted to order</h1>
<p>Switching from Blue Bottle is easy. Contoso Roasters vs Trade Coffee: see why coffee lovers choose us.</p>
<a href="/about">About us</a> <a href="/pricing">Pricing</a></body></html>`;
const ABOUT = `<html lang="en-GB"><body><h1>About Contoso Roasters</h1><p>Founded in 2019 and headquartered in Bristol, England.</p></body></html>`;
const PRICING = `<html><body><h1>Pricing</h1><ul><li>Monthly bag — £12 per month</li></ul></body></html>`;

/**
 * The server resolves `*.localhost` to 127.0.0.1 (localhost-names.mjs): a pitch's prospect is a
 * brand, whose primary domain is its website's host, and an IP address is no domain.
 */
const LOCALHOST_NAMES = `--import ${pathToFileURL(resolve(import.meta.dirname, "localhost-names.mjs")).href}`;

interface Agency {
  id: string;
  name: string;
}

/**
 * Issue 28's agency screens in a real Chromium against `sightline all` (API, worker and the built
 * app in one process) on SQLite: the owner of an Agency-plan workspace starts an agency from its
 * settings, adds two clients with and without a cap, brands the agency, and reads, sorts and exports
 * the three clients in one table; a pitch is made from a local website with the sandbox engine,
 * runs, and its link opens the report under the agency's branding in a browser with no session; an
 * agency's custom host signs in under its name. Only 127.0.0.1 and localhost are contacted.
 */
describe("an agency in a browser", () => {
  let browser: Browser;
  let installation: Installation;
  let site: Site;
  let owner: Session;
  const opened: SignedInPage[] = [];

  beforeAll(async () => {
    site = await new Site().start();
    site.pages.set("/", { body: HOME });
    site.pages.set("/about", { body: ABOUT });
    site.pages.set("/pricing", { body: PRICING });
    [browser, installation] = await Promise.all([
      launchChromium(),
      startInstallation("sqlite", {
        SIGHTLINE_WEBHOOK_ALLOW_PRIVATE: "true",
        NODE_OPTIONS: [process.env.NODE_OPTIONS, LOCALHOST_NAMES].filter(Boolean).join(" "),
      }),
    ]);
    ({ session: owner } = await signUp(installation, OWNER, { workspace_name: "Northwind in-house" }));
  }, 120_000);

  afterEach(async () => {
    for (const { context } of opened.splice(0)) await context.close();
  });

  afterAll(async () => {
    await browser?.close();
    await installation?.stop();
    await site?.stop();
    console.log(`screenshots in ${SCREENSHOTS}`);
  });

  async function ownerPage(width: number): Promise<SignedInPage> {
    const signed = await sessionPage(browser, installation, owner, { ...OPTIONS, viewport: { width, height: 900 } });
    opened.push(signed);
    return signed;
  }

  /** A workspace of the owner's (on the Agency plan, as every sign-up here) made the first client of a new agency. */
  async function agencyByApi(name: string, workspaceName: string): Promise<Agency> {
    const workspace = await appCall<{ id: string }>(installation, owner, "POST", "/workspaces", {
      name: workspaceName,
    });
    const agency = await appCall<Agency>(installation, owner, "POST", "/agencies", {
      name,
      workspace_id: workspace.id,
    });
    await appCall(installation, owner, "PATCH", `/agencies/${agency.id}/branding`, {
      name: BRAND_NAME,
      primary: BRAND_COLOUR,
    });
    return agency;
  }

  async function checkScreen(page: Page, width: number, screen: string, file?: string): Promise<void> {
    await page.setViewportSize({ width, height: 900 });
    await expectNoSidewaysScroll(page, width, screen);
    await expectAccessible(page, `${screen} at ${width} px`);
    // From the top: a full-page screenshot of a scrolled page draws the sticky header mid-page.
    await page.evaluate("window.scrollTo(0, 0)");
    if (file !== undefined) await screenshot(page, file);
  }

  const clientNames = (table: Locator) => table.locator("tbody th[scope=row]").allInnerTexts();

  it("starts an agency from a workspace's settings, adds and caps clients, brands it, and lists, sorts and exports them", async () => {
    const { page, problems } = await ownerPage(1280);
    const me = await appCall<{ workspaces: { id: string; name: string }[] }>(installation, owner, "GET", "/me");
    const home = me.workspaces.find((w) => w.name === "Northwind in-house");
    expect(home).toBeDefined();

    // Settings → Agency: the owner of a workspace on the Agency plan starts one; it is the first client.
    await page.goto(`${installation.base}/w/${home?.id}/settings#agency`);
    const card = page.locator("#agency");
    await card.getByRole("button", { name: "Start an agency" }).waitFor();
    await expectAccessible(page, "workspace settings with Start an agency");
    await card.getByLabel("Agency name").fill("Northwind Digital");
    await card.getByRole("button", { name: "Start an agency" }).click();
    await page.waitForURL(/\/agency\/agy_[^/]+$/);
    const agencyId = /\/agency\/(agy_[^/]+)/.exec(page.url())?.[1] ?? "";
    await page.getByRole("heading", { level: 1, name: "Northwind Digital" }).waitFor();
    await page
      .getByRole("region", { name: "Credit pool this month" })
      .getByText(/credits left/)
      .waitFor();

    // Two more clients: one capped at 500 credits a month, one on the pool alone.
    for (const [name, cap] of [
      ["Acme Bakery", "500"],
      ["Globex Outdoor", ""],
    ] as const) {
      await page.getByRole("button", { name: "Add client" }).click();
      const dialog = page.getByRole("dialog", { name: "Add a client" });
      await dialog.getByLabel("Client name").fill(name);
      if (cap !== "") await dialog.getByLabel("Monthly credit cap (optional)").fill(cap);
      await dialog.getByRole("button", { name: "Add client" }).click();
      await dialog.waitFor({ state: "detached" });
    }
    const table = page.getByRole("table");
    await expect.poll(() => clientNames(table)).toEqual(["Acme Bakery", "Globex Outdoor", "Northwind in-house"]);
    const row = (name: string) => table.getByRole("row").filter({ has: page.getByRole("rowheader", { name }) });
    await row("Acme Bakery").getByText("0 of 500").waitFor();
    await row("Globex Outdoor").getByText("0 (no cap)").waitFor();
    expect(await row("Globex Outdoor").getByText("no answers yet").count()).toBe(1);

    // A cap set from the row's dialog.
    await row("Globex Outdoor").getByRole("button", { name: "Edit the credit cap of Globex Outdoor" }).click();
    const capDialog = page.getByRole("dialog", { name: "Credit cap of Globex Outdoor" });
    await capDialog.getByLabel("Monthly credit cap").fill("200");
    await capDialog.getByRole("button", { name: "Save cap" }).click();
    await row("Globex Outdoor").getByText("0 of 200").waitFor();

    // Figures to read: a brand with a finished analysis in two clients, monitoring in one of them.
    await Promise.all([
      seedClient(await clientId(agencyId, "Acme Bakery"), "Acme Bread", "acme-bakery.example", true),
      seedClient(home?.id ?? "", "Northwind Studio", "northwind-studio.example", false),
    ]);
    await page.reload();
    await row("Acme Bakery")
      .getByText(/n = \d+/)
      .waitFor();
    await row("Northwind in-house")
      .getByText(/n = \d+/)
      .waitFor();
    expect(
      await row("Acme Bakery")
        .getByText(/^\d+ of 500$/)
        .textContent(),
    ).not.toBe("0 of 500");
    expect(await row("Acme Bakery").getByText("Never").count()).toBe(0);
    expect(await row("Acme Bakery").getByText("Not scheduled").count()).toBe(0);
    expect(await row("Globex Outdoor").getByText("no answers yet").count()).toBe(1);

    // Sorting: by name (A to Z first), again for Z to A; by visibility, largest first, nothing measured last.
    const clientHeader = table.getByRole("columnheader", { name: "Client" });
    expect(await clientHeader.getAttribute("aria-sort")).toBe("ascending");
    await clientHeader.getByRole("button").click();
    expect(await clientHeader.getAttribute("aria-sort")).toBe("descending");
    expect(await clientNames(table)).toEqual(["Northwind in-house", "Globex Outdoor", "Acme Bakery"]);
    const visibilityHeader = table.getByRole("columnheader", { name: "Visibility, last 30 days" });
    await visibilityHeader.getByRole("button").click();
    expect(await visibilityHeader.getAttribute("aria-sort")).toBe("descending");
    expect(await clientHeader.getAttribute("aria-sort")).toBeNull();
    expect((await clientNames(table))[2]).toBe("Globex Outdoor");
    await visibilityHeader.getByRole("button").click();
    expect(await visibilityHeader.getAttribute("aria-sort")).toBe("ascending");
    expect((await clientNames(table))[2]).toBe("Globex Outdoor");
    // Every column sorts, by keyboard too.
    for (const name of [
      "Brands",
      "Change vs previous 30 days",
      "Open alerts",
      "Credits this month",
      "Last run",
      "Next run",
    ]) {
      const header = table.getByRole("columnheader", { name });
      await header.getByRole("button").focus();
      await page.keyboard.press("Enter");
      expect(await header.getAttribute("aria-sort"), name).not.toBeNull();
    }
    await clientHeader.getByRole("button").click();
    await clientHeader.getByRole("button").click();
    expect(await clientHeader.getAttribute("aria-sort")).toBe("descending");

    // "Export CSV": the table's rows, in its order.
    const shown = await clientNames(table);
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Export CSV" }).click(),
    ]);
    const csv = (await readFile(await download.path(), "utf8"))
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
    expect(csv).toHaveLength(4);
    expect(csv[0]?.startsWith('Client,Workspace ID,Brands,"Visibility, last 30 days (%)",95% low (%)')).toBe(true);
    expect(csv.slice(1).map((line) => line.split(",")[0])).toEqual(shown);
    expect(csv.find((line) => line.startsWith("Globex Outdoor,"))).toContain(",200,");

    await checkScreen(page, 1280, "agency home", "agency-home-1280");
    await checkScreen(page, 390, "agency home", "agency-home-390");
    await page.setViewportSize({ width: 1280, height: 900 });

    // The switcher: workspaces under their agency, searched by name, with the agency's home.
    await page.getByRole("button", { name: /Switch workspace/ }).click();
    const switcher = page.getByRole("dialog", { name: "Switch workspace" });
    await switcher.getByRole("region", { name: "Northwind Digital" }).waitFor();
    await switcher.getByLabel("Search workspaces by name").fill("glob");
    await expect
      .poll(() => switcher.getByRole("link").allInnerTexts())
      .toEqual(["Agency home", expect.stringContaining("Globex Outdoor")]);
    await expectAccessible(page, "the workspace switcher, searched");
    await screenshot(page, "agency-switcher-1280");
    await switcher.getByLabel("Search workspaces by name").press("Enter");
    await page.waitForURL(/\/w\/[^/]+$/);
    await page.getByRole("button", { name: "Workspace: Globex Outdoor. Switch workspace" }).waitFor();

    // Staff and branding: the owner is the agency's admin; the branding every client inherits.
    await page.goto(`${installation.base}/agency/${agencyId}/settings`);
    const staff = page.locator("#staff");
    await staff.getByRole("row", { name: /Nora Reyes/ }).waitFor();
    expect(await staff.getByRole("combobox", { name: "Role of Nora Reyes" }).textContent()).toContain("Admin");
    const branding = page.locator("#branding");
    const name = branding.getByLabel("Name clients see");
    await expect.poll(() => name.inputValue()).toBe("Northwind Digital");
    await name.fill(BRAND_NAME);
    await branding.getByLabel("Main colour", { exact: true }).fill(BRAND_COLOUR);
    await branding.getByRole("button", { name: "Save branding" }).click();
    await page.getByText("Branding saved").waitFor();
    const saved = await appCall<{ name: string; primary: string }>(
      installation,
      owner,
      "GET",
      `/agencies/${agencyId}/branding`,
    );
    expect(saved).toMatchObject({ name: BRAND_NAME, primary: BRAND_COLOUR });
    // A client without branding of its own carries the agency's.
    const acme = await clientId(agencyId, "Acme Bakery");
    const inherited = await appCall<{ name: string; agency: string | null }>(
      installation,
      owner,
      "GET",
      `/workspaces/${acme}/branding`,
    );
    expect(inherited.name).toBe(BRAND_NAME);
    await checkScreen(page, 1280, "agency staff and branding", "agency-settings-1280");
    await checkScreen(page, 390, "agency staff and branding", "agency-settings-390");
    expect(problems).toEqual([]);
  }, 120_000);

  /** A brand in a client, with one finished analysis of the sandbox, and a daily schedule run once if asked. */
  async function seedClient(workspaceId: string, name: string, domain: string, monitored: boolean): Promise<void> {
    const v1 = `/workspaces/${workspaceId}/v1`;
    const call = <T>(method: string, path: string, body?: unknown) =>
      appCall<T>(installation, owner, method, `${v1}${path}`, body);
    const brand = await call<{ id: string }>("POST", "/projects", {
      name,
      primary_domain: domain,
      competitors: [{ name: "Contoso Foods" }, { name: "Fabrikam Goods" }],
      prompts: [`best ${name} alternatives`, `is ${name} worth it`, `where to buy from ${domain}`],
      engines: ["sandbox"],
    });
    const analysis = await call<{ status: string }>("POST", "/analyze", { project_id: brand.id, samples: 2, wait: 30 });
    expect(analysis.status).toBe("completed");
    if (!monitored) return;
    const schedule = await call<{ id: string }>("POST", "/monitoring", {
      project_id: brand.id,
      schedule: { every: "day", at: "08:30" },
      timezone: "UTC",
      samples: 1,
      alert_rules: [],
    });
    await call("POST", `/monitoring/${schedule.id}/run`);
    await expect
      .poll(
        async () =>
          (await call<{ data: { status: string }[] }>("GET", `/monitoring/${schedule.id}/runs`)).data[0]?.status,
        { timeout: 30_000, interval: 250 },
      )
      .toBe("completed");
  }

  async function clientId(agencyId: string, name: string): Promise<string> {
    const clients = await appCall<{ data: { id: string; name: string }[] }>(
      installation,
      owner,
      "GET",
      `/agencies/${agencyId}/clients`,
    );
    return clients.data.find((client) => client.name === name)?.id ?? "";
  }

  it("makes a pitch from a prospect's website, runs it, and its link opens the branded report without a session", async () => {
    const agency = await agencyByApi("Northwind Pitches", "Pitch desk");
    const { page, problems } = await ownerPage(1280);
    await page.goto(`${installation.base}/agency/${agency.id}/pitches`);
    await page.getByText("No pitches yet").waitFor();
    await page.getByRole("link", { name: "New pitch" }).click();
    const website = site.url.replace("127.0.0.1", "contoso-roasters.localhost");
    await page.getByLabel("Prospect's website").fill(website);
    await page.getByRole("button", { name: "Continue" }).click();
    await page.waitForURL(/\/pitches\/pit_[^/]+$/);

    // The website's suggestions, to confirm: the name, competitors and prompts, ticked.
    const setup = page.getByRole("form", { name: "Set up the pitch" });
    await expect.poll(() => setup.getByLabel("Prospect's name").inputValue()).toBe("Contoso Roasters");
    const prompts = setup.getByRole("group", { name: "Prompts the website suggests" });
    const ticked = await prompts.getByRole("checkbox", { checked: true }).count();
    expect(ticked).toBeGreaterThan(0);
    expect(ticked).toBeLessThanOrEqual(20);
    await setup.getByLabel(/^(Other competitors|Competitors), one per line$/).fill("Onyx Coffee Lab\nBlue Bottle");
    await checkScreen(page, 1280, "pitch setup", "pitch-setup-1280");
    await checkScreen(page, 390, "pitch setup", "pitch-setup-390");
    await page.setViewportSize({ width: 1280, height: 900 });

    await setup.getByRole("button", { name: "Run pitch" }).click();
    // The sandbox answers at once; the worker of `sightline all` runs the analysis.
    await page.getByRole("button", { name: "Create share link" }).waitFor({ timeout: 90_000 });
    await page.getByText("Ready", { exact: true }).waitFor();
    // The prospect's figures, as the report states them: visibility with its interval and n.
    await page.getByText(/^\d+(\.\d)?% \(\d+(\.\d)?–\d+(\.\d)?%, n = \d+\)$/).waitFor();
    const progress = page.getByRole("progressbar", { name: "Answers received" });
    expect(await progress.getAttribute("aria-valuetext")).toMatch(/^(\d+) of \1 answers$/);
    await checkScreen(page, 1280, "pitch page, ready", "pitch-page-1280");
    await page.setViewportSize({ width: 1280, height: 900 });

    await page.getByRole("button", { name: "Create share link" }).click();
    const link = page.getByLabel("Share link", { exact: true });
    await link.waitFor();
    const shareUrl = await link.inputValue();
    expect(shareUrl.startsWith(`${installation.base}/shared/reports/`)).toBe(true);
    const open = page.getByRole("link", { name: /Open report/ });
    expect(await open.getAttribute("href")).toBe(shareUrl);
    await checkScreen(page, 1280, "pitch page, shared", "pitch-page-shared-1280");
    await checkScreen(page, 390, "pitch page, shared", "pitch-page-shared-390");

    // The prospect's browser: a new context, no cookie, no session.
    const prospect = await openPage(browser, { ...OPTIONS, viewport: { width: 1280, height: 900 } });
    opened.push(prospect);
    const response = await prospect.page.goto(shareUrl);
    expect(response?.status()).toBe(200);
    const text = await prospect.page.locator("body").textContent();
    expect(text).toContain(BRAND_NAME);
    expect(text).toContain("Contoso Roasters");
    expect(await prospect.context.cookies()).toEqual([]);
    for (const width of [1280, 390]) {
      await prospect.page.setViewportSize({ width, height: 900 });
      await expectNoSidewaysScroll(prospect.page, width, "shared pitch report");
      await expectAccessible(prospect.page, `shared pitch report at ${width} px`);
      await screenshot(prospect.page, `pitch-report-${width}`);
    }
    expect(prospect.problems).toEqual([]);

    // The prospect signed: the pitch becomes a client, and the list says so.
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole("button", { name: "Convert to client: Contoso Roasters" }).click();
    const convert = page.getByRole("dialog", { name: "Make Contoso Roasters a client" });
    await convert.getByRole("button", { name: "Convert to client" }).click();
    await page.getByText("Client now", { exact: true }).waitFor();
    await page.goto(`${installation.base}/agency/${agency.id}`);
    await expect.poll(() => clientNames(page.getByRole("table"))).toEqual(["Contoso Roasters", "Pitch desk"]);
    // Its answers came with it: the client's visibility is measured.
    const contoso = page.getByRole("row").filter({ has: page.getByRole("rowheader", { name: "Contoso Roasters" }) });
    await contoso.getByText(/n = \d+/).waitFor();
    await page.getByRole("link", { name: "Pitches" }).click();
    const listed = page.getByRole("row", { name: /Contoso Roasters/ });
    await listed.getByText("Client now").waitFor();
    expect(await listed.getByRole("button", { name: /^Delete/ }).count()).toBe(0);
    await checkScreen(page, 1280, "pitches list", "pitches-list-1280");
    await checkScreen(page, 390, "pitches list", "pitches-list-390");
    expect(problems).toEqual([]);
  }, 150_000);

  it("signs in under the agency's name on its custom host", async () => {
    const agency = await agencyByApi("Northwind Hosting", "Hosted client");
    const port = new URL(installation.base).port;
    // The operator's command (`sightline agency host`), as a second process against the same database.
    const runtime = await createRuntime(
      { database: installation.database, secretKeys: [TEST_SECRET_KEY], webhookAllowPrivate: true },
      createLogger("silent"),
      { migrate: false },
    );
    try {
      await setCustomHost(runtime.deps, agency.id, `localhost:${port}`);
    } finally {
      await runtime.close();
    }
    const visitor = await openPage(browser, { ...OPTIONS, viewport: { width: 390, height: 900 } });
    opened.push(visitor);
    await visitor.page.goto(`http://localhost:${port}/sign-in`);
    await visitor.page.getByRole("heading", { level: 1, name: `Sign in to ${BRAND_NAME}` }).waitFor();
    expect(await visitor.page.getByText("Sightline", { exact: true }).count()).toBe(0);
    await expectAccessible(visitor.page, "sign-in on the agency's host");
    await screenshot(visitor.page, "agency-host-sign-in-390");
    // On the server's own address, Sightline's.
    const plain = await openPage(browser, { ...OPTIONS, viewport: { width: 390, height: 900 } });
    opened.push(plain);
    await plain.page.goto(`${installation.base}/sign-in`);
    await plain.page.getByRole("heading", { level: 1, name: "Sign in to Sightline" }).waitFor();
    expect(plain.problems).toEqual([]);
  }, 60_000);
});
