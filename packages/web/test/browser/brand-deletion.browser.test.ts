import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectAccessible, launchChromium, SCREENSHOTS, screenshot } from "../../../server/test/helpers/browser.ts";
import { DIALECTS } from "../../../server/test/helpers/databases.ts";
import { BRAND, type SeededBrand, seedBrands } from "./brand-seed.ts";
import { appCall, type Installation, sessionPage, startInstallation } from "./installation.ts";

const WIDTHS = [1280, 390] as const;
const OPTIONS = { locale: "en-US", reducedMotion: "reduce" } as const;

/**
 * Issue 23's "managed where they are read" in a real Chromium against `sightline all`: on the
 * Prompts page a prompt added, reworded, paused and deleted one at a time; on the Brands page the
 * brand deleted with its name typed, listed under "Deleted brands" with its purge date, and restored
 * with every figure unchanged. Every screen passes axe and fits at 1280 and 390 px.
 */
describe.each(DIALECTS)("prompts and brands managed where they are read [%s]", (dialect) => {
  let browser: Browser;
  let installation: Installation;
  let seeded: SeededBrand;

  const shot = (page: Page, name: string, width: number) => screenshot(page, `manage-${dialect}-${name}-${width}`);

  async function fits(page: Page, width: number, screen: string) {
    await expectAccessible(page, `${screen} at ${width} px`);
    const scrollWidth = Number(await page.evaluate("document.documentElement.scrollWidth"));
    expect(scrollWidth, `${screen} at ${width} px is wider than the screen`).toBeLessThanOrEqual(width);
    await shot(page, screen, width);
  }

  beforeAll(async () => {
    [browser, installation] = await Promise.all([launchChromium(), startInstallation(dialect)]);
    seeded = await seedBrands(installation, { brand: { analysis: true } }).brand;
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await installation?.stop();
    console.log(`screenshots in ${SCREENSHOTS}`);
  });

  const api = <T>(method: string, path: string, body?: unknown) =>
    appCall<T>(installation, seeded.session, method, `/workspaces/${seeded.workspaceId}/v1${path}`, body);

  it("adds, rewords, pauses and deletes a prompt on the Prompts page", async () => {
    const { page, problems } = await sessionPage(browser, installation, seeded.session, {
      ...OPTIONS,
      viewport: { width: 1280, height: 900 },
    });
    await page.goto(`${installation.base}/w/${seeded.workspaceId}/brands/${seeded.brandId}/prompts`);
    const card = page.locator('section[aria-labelledby="tracked-prompts-title"]');
    await card.getByText(BRAND.prompts[0] ?? "", { exact: true }).waitFor();

    // Added: one prompt, without the rest of the brand.
    await card.getByLabel("Add a prompt").fill("Which CRM suits a ten-person agency?");
    await card.getByRole("button", { name: "Add prompt" }).click();
    await card.getByText("Which CRM suits a ten-person agency?", { exact: true }).waitFor();
    // A duplicate is refused in the form, naming why.
    await card.getByLabel("Add a prompt").fill(BRAND.prompts[0]?.toUpperCase() ?? "");
    await card.getByRole("button", { name: "Add prompt" }).click();
    await card.getByText("This prompt is tracked already.").waitFor();
    await card.getByLabel("Add a prompt").fill("");
    expect(await card.getByText("This prompt is tracked already.").count()).toBe(0);

    // Reworded: the note says what happens to its answers.
    await card.getByRole("button", { name: "Reword “Which CRM suits a ten-person agency?”" }).click();
    await card.getByText(/the answers so far keep the wording they were asked with/).waitFor();
    await fits(page, 1280, "prompt-reword");
    await card
      .getByLabel("New wording of “Which CRM suits a ten-person agency?”")
      .fill("Which CRM suits a small agency?");
    await card.getByRole("button", { name: "Save", exact: true }).click();
    await card.getByText("Which CRM suits a small agency?", { exact: true }).waitFor();

    // Paused, then deleted with a confirmation.
    await card
      .getByRole("switch", { name: "Ask “Which CRM suits a small agency?” in analyses and monitoring" })
      .click();
    await card.getByText("Switched off", { exact: true }).waitFor();
    let project = await api<{ prompts: string[]; paused_prompts: string[] }>("GET", `/projects/${seeded.brandId}`);
    expect(project.prompts).toEqual([...BRAND.prompts, "Which CRM suits a small agency?"]);
    expect(project.paused_prompts).toEqual(["Which CRM suits a small agency?"]);
    await card.getByRole("button", { name: "Delete “Which CRM suits a small agency?”" }).click();
    const confirm = page.getByRole("alertdialog");
    await confirm.getByText("Its answers so far are kept.", { exact: false }).waitFor();
    await confirm.getByRole("button", { name: "Delete prompt" }).click();
    await confirm.waitFor({ state: "detached" });
    await expect.poll(() => card.getByText("Which CRM suits a small agency?", { exact: true }).count()).toBe(0);
    project = await api("GET", `/projects/${seeded.brandId}`);
    expect(project.prompts).toEqual([...BRAND.prompts]);
    expect(project.paused_prompts).toEqual([]);

    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await fits(page, width, "prompts-page");
    }
    expect(problems).toEqual([]);
  }, 90_000);

  it("deletes the brand with its name typed, lists it as deleted, and restores it with every figure unchanged", async () => {
    // A fixed period around the seeded analysis: the default one moves with the clock.
    const day = (offset: number) =>
      `${new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10)}T00:00:00.000Z`;
    const figures = () => api<unknown>("GET", `/projects/${seeded.brandId}/metrics?from=${day(-7)}&to=${day(2)}`);
    const before = await figures();
    const { page, problems } = await sessionPage(browser, installation, seeded.session, {
      ...OPTIONS,
      viewport: { width: 1280, height: 900 },
    });
    await page.goto(`${installation.base}/w/${seeded.workspaceId}`);
    await page.getByRole("button", { name: `Delete ${BRAND.name}` }).click();
    const dialog = page.getByRole("dialog");
    const submit = dialog.getByRole("button", { name: "Delete brand" });
    expect(await submit.isDisabled()).toBe(true);
    await dialog.getByLabel(`Type “${BRAND.name}” to confirm`).fill(BRAND.name);
    await fits(page, 1280, "delete-brand-dialog");
    await submit.click();
    await dialog.waitFor({ state: "detached" });

    const deleted = page.locator('section[aria-labelledby="deleted-brands-title"]');
    await deleted.getByText(BRAND.name, { exact: true }).waitFor();
    await deleted.getByText(/purged on/).waitFor();
    expect(await page.getByRole("link", { name: BRAND.name, exact: true }).count()).toBe(0);
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await fits(page, width, "deleted-brands");
    }
    await page.setViewportSize({ width: 1280, height: 900 });

    await deleted.getByRole("button", { name: `Restore ${BRAND.name}` }).click();
    await page.getByRole("link", { name: BRAND.name, exact: true }).waitFor();
    await expect.poll(() => deleted.count()).toBe(0);
    expect(await figures()).toEqual(before);
    expect(problems.filter((p) => !/status of 404/.test(p))).toEqual([]);
  }, 90_000);
});
