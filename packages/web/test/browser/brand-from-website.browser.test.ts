import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectAccessible, launchChromium, SCREENSHOTS, screenshot } from "../../../server/test/helpers/browser.ts";
import { DIALECTS } from "../../../server/test/helpers/databases.ts";
import { Site } from "../../../server/test/helpers/website.ts";
import { appCall, type Installation, type Session, sessionPage, signUp, startInstallation } from "./installation.ts";

const OPTIONS = { locale: "en-US", reducedMotion: "reduce" } as const;
const OWNER = { name: "Maya Lind", email: "maya@northwind.example.com", password: "a long pass phrase 42" };

const HOME = `<!doctype html><html lang="en-GB"><head><title>Northwind | The CRM for small agencies</title>
<meta name="description" content="Northwind is a CRM for small agencies that want their pipeline in one place.">
</head><body><h1>Your pipeline, finally in one place</h1>
<p>Switching from HubSpot takes a day. Northwind vs Pipedrive: see why agencies choose us.</p>
<a href="/about">About us</a> <a href="/pricing">Pricing</a></body></html>`;
const ABOUT = `<html lang="en-GB"><body><h1>About Northwind</h1><p>Founded in 2016 and headquartered in Leeds, England.</p></body></html>`;
const PRICING = `<html><body><h1>Pricing</h1><ul><li>Free plan for up to 2 users</li><li>Team — £29 per month</li></ul></body></html>`;

/**
 * Issue 23's "Start from a website" in a real Chromium against `sightline all`, with a local
 * website (the installation may read private addresses, as in development): the address → the
 * suggestions with their sources → accept → the pre-filled form → the brand; an unreachable
 * site leads to the form by hand with the reason. At 1280 and 390 px, axe clean.
 */
describe.each(DIALECTS)("adding a brand from its website [%s]", (dialect) => {
  let browser: Browser;
  let installation: Installation;
  let site: Site;
  let session: Session;
  let workspaceId: string;

  const shot = (page: Page, name: string, width: number) => screenshot(page, `website-${dialect}-${name}-${width}`);
  async function fits(page: Page, width: number, screen: string) {
    await page.setViewportSize({ width, height: 900 });
    await expectAccessible(page, `${screen} at ${width} px`);
    const scrollWidth = Number(await page.evaluate("document.documentElement.scrollWidth"));
    expect(scrollWidth, `${screen} at ${width} px is wider than the screen`).toBeLessThanOrEqual(width);
    await shot(page, screen, width);
  }

  beforeAll(async () => {
    site = await new Site().start();
    site.pages.set("/", { body: HOME });
    site.pages.set("/about", { body: ABOUT });
    site.pages.set("/pricing", { body: PRICING });
    [browser, installation] = await Promise.all([
      launchChromium(),
      startInstallation(dialect, { SIGHTLINE_WEBHOOK_ALLOW_PRIVATE: "true" }),
    ]);
    ({ session, workspaceId } = await signUp(installation, OWNER, { workspace_name: "Northwind marketing" }));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await installation?.stop();
    await site?.stop();
    console.log(`screenshots in ${SCREENSHOTS}`);
  });

  it("suggests the brand from its pages, each suggestion with its source, and adds it as confirmed", async () => {
    const { page, problems } = await sessionPage(browser, installation, session, {
      ...OPTIONS,
      viewport: { width: 1280, height: 900 },
    });
    await page.goto(`${installation.base}/w/${workspaceId}/brands/new`);
    await page.getByLabel("Website address").waitFor();
    // One field to begin with; the form's fields come later.
    expect(await page.getByLabel("Brand name").count()).toBe(0);
    await fits(page, 1280, "start");
    await fits(page, 390, "start");
    await page.setViewportSize({ width: 1280, height: 900 });

    await page.getByLabel("Website address").fill(site.url);
    await page.getByRole("button", { name: "Suggest" }).click();
    const review = page.getByRole("region", { name: "Suggestions from the website" });
    await review.waitFor();
    await review.getByText("Northwind", { exact: true }).waitFor();
    await review
      .getByRole("link", { name: /\/about$/ })
      .first()
      .waitFor();
    await review.getByRole("checkbox", { name: "HubSpot" }).waitFor();
    await review.getByRole("checkbox", { name: "Pipedrive" }).waitFor();
    expect(await review.getByText("simulated by the sandbox, not a real engine's answer").count()).toBeGreaterThan(0);
    await fits(page, 1280, "suggestions");
    await fits(page, 390, "suggestions");
    await page.setViewportSize({ width: 1280, height: 900 });

    // The person keeps what they want: one prompt is left out; the names the sandbox made up start
    // unticked (left for the suggested competitors), those the pages name ticked.
    const awareness = review.getByRole("group", { name: "Awareness" });
    const droppedText = (await awareness.locator("label").first().textContent()) ?? "";
    expect(droppedText).not.toBe("");
    await awareness.getByRole("checkbox").first().click();
    const simulated = review.getByRole("listitem").filter({ hasText: "Simulated" }).first();
    const rivalName = (await simulated.locator("label").first().textContent()) ?? "";
    expect(rivalName).not.toBe("");
    expect(await simulated.getByRole("checkbox").isChecked()).toBe(false);
    const kept = await review.getByRole("checkbox", { checked: true }).count();
    await page.getByRole("button", { name: "Use these suggestions" }).click();

    await page.getByText("Filled in from the suggestions you kept").waitFor();
    expect(await page.getByLabel("Brand name").inputValue()).toBe("Northwind");
    expect(await page.getByLabel("What the brand sells").inputValue()).toBe("CRM for small agencies");
    // Expert fields are folded away.
    expect(await page.getByLabel("Phrases that are not the brand, one per line").isVisible()).toBe(false);
    await fits(page, 1280, "form-prefilled");
    await fits(page, 390, "form-prefilled");
    // The local site answers at an IP address, which a brand's domain cannot be: corrected by hand.
    expect(await page.getByLabel("Primary domain").inputValue()).toBe("127.0.0.1");
    await page.getByLabel("Primary domain").fill("northwind.example.com");
    await page.getByRole("button", { name: "Add brand" }).click();
    await page.waitForURL(/\/brands\/prj_[^/?]+(\?.*)?$/);
    const brandId = /\/brands\/(prj_[^/?]+)/.exec(page.url())?.[1] ?? "";
    const project = await appCall<{
      name: string;
      primary_domain: string;
      category: string;
      competitors: { name: string }[];
      prompts: string[];
      facts: Record<string, unknown>;
      country: string;
      language: string;
    }>(installation, session, "GET", `/workspaces/${workspaceId}/v1/projects/${brandId}`);
    expect(project).toMatchObject({
      name: "Northwind",
      primary_domain: "northwind.example.com",
      category: "CRM for small agencies",
      country: "GB",
      language: "en",
      facts: { founded_year: 2016, headquarters: "Leeds, England", free_plan: true },
    });
    const names = project.competitors.map((c) => c.name);
    expect(names.slice(0, 2)).toEqual(["HubSpot", "Pipedrive"]);
    expect(names).not.toContain(rivalName);
    expect(project.prompts).not.toContain(droppedText);
    // Every ticked checkbox, and nothing else.
    expect(names.length + project.prompts.length).toBe(kept);
    expect(problems).toEqual([]);
  }, 90_000);

  it("an unreachable site leads to the form by hand, saying why", async () => {
    const { page } = await sessionPage(browser, installation, session, {
      ...OPTIONS,
      viewport: { width: 390, height: 900 },
    });
    const closed = await new Site().start();
    const url = closed.url;
    await closed.stop();
    await page.goto(`${installation.base}/w/${workspaceId}/brands/new`);
    await page.getByLabel("Website address").fill(url);
    await page.getByRole("button", { name: "Suggest" }).click();
    await page
      .getByText(/We could not read .*the site refused the connection.* Fill in the brand by hand below/)
      .waitFor();
    await page.getByLabel("Brand name").waitFor();
    await fits(page, 390, "unreachable");
  }, 60_000);
});
