import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sentimentWord } from "../../../server/src/services/glossary/format.ts";
import { GLOSSARY, METRIC_IDS } from "../../../server/src/services/glossary/metrics.ts";
import { expectAccessible, launchChromium, SCREENSHOTS, screenshot } from "../../../server/test/helpers/browser.ts";
import { DIALECTS } from "../../../server/test/helpers/databases.ts";
import { type SeededBrand, seedBrands } from "./brand-seed.ts";
import { appCall, type Installation, sessionPage, startInstallation } from "./installation.ts";
import { expectNoSidewaysScroll } from "./screens.ts";

const WIDTHS = [1280, 390] as const;
const OPTIONS = { locale: "en-US", reducedMotion: "reduce" } as const;

/** What the glossary page says of each figure, under these labels, in this order. */
const PARTS = [
  ["What is counted", "counts"],
  ["Scale", "scale"],
  ["n", "n"],
  ["Interval", "interval"],
  ["Significance", "significance"],
] as const;

/** The text a figure's hint button gives screen readers as its description (its aria-describedby). */
function description(button: Locator): Promise<string> {
  return button.evaluate((el) =>
    (el.getAttribute("aria-describedby") ?? "")
      .split(/\s+/)
      .map((id: string) => el.ownerDocument.getElementById(id)?.textContent ?? "")
      .join(" ")
      .trim(),
  );
}

/**
 * Issue 24's one vocabulary in a real Chromium against `sightline all`: the Glossary page lists
 * every figure of the server's glossary with its name, hint and definition, each at an anchor of
 * its id; an answer names its figures as the glossary does, on its scale (sentiment 0 to 100), each
 * with the glossary's hint, reachable by keyboard and read to screen readers, linking to its entry.
 * Both screens pass axe and fit at 1280 and 390 px, in light and dark.
 */
describe.each(DIALECTS)("the glossary and the figures' hints [%s]", (dialect) => {
  let browser: Browser;
  let installation: Installation;
  let seeded: SeededBrand;

  const shot = (page: Page, name: string, width: number) => screenshot(page, `glossary-${dialect}-${name}-${width}`);

  async function fits(page: Page, width: number, screen: string) {
    await page.setViewportSize({ width, height: 900 });
    await expectAccessible(page, `${screen} at ${width} px`);
    await expectNoSidewaysScroll(page, width, screen);
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

  it("lists every figure of the glossary with its definition, at an anchor of its own, in light and dark", async () => {
    const { page, problems } = await sessionPage(browser, installation, seeded.session, {
      ...OPTIONS,
      viewport: { width: 1280, height: 900 },
    });
    await page.goto(`${installation.base}/w/${seeded.workspaceId}`);
    // Reached from the header, where the API reference is.
    await page.getByRole("banner").getByRole("link", { name: "Glossary" }).click();
    await page.waitForURL(/\/glossary$/);
    await page.getByRole("heading", { name: "Glossary", level: 1 }).waitFor();
    expect(await page.title()).toBe("Glossary · Sightline");

    const entries = page.locator("main section[id]");
    expect(await entries.evaluateAll((els) => els.map((el) => el.id))).toEqual([...METRIC_IDS]);
    for (const id of METRIC_IDS) {
      const definition = GLOSSARY[id];
      const entry = page.getByRole("region", { name: definition.name, exact: true });
      expect(await entry.getAttribute("id")).toBe(id);
      expect(await entry.getByRole("heading").textContent()).toBe(definition.name);
      await entry.getByText(definition.hint, { exact: true }).waitFor();
      const labels = await entry.locator("dt").allTextContents();
      const texts = await entry.locator("dd").allTextContents();
      for (const [label, part] of PARTS) expect(texts[labels.indexOf(label)], `${id}: ${label}`).toBe(definition[part]);
    }

    // A figure's link scrolls to its entry, below the sticky header.
    await page.getByRole("navigation", { name: "Figures" }).getByRole("link", { name: "Citation share" }).click();
    await page.waitForURL(/\/glossary#citation_share$/);
    await expect
      .poll(() => page.locator("#citation_share").evaluate((el) => Math.round(el.getBoundingClientRect().top)))
      .toBeGreaterThanOrEqual(56);
    expect(await page.locator("#citation_share").evaluate((el) => el.getBoundingClientRect().top)).toBeLessThan(200);

    await page.evaluate("window.scrollTo(0, 0)");
    for (const width of WIDTHS) await fits(page, width, "page");
    await page.emulateMedia({ colorScheme: "dark" });
    await expect.poll(() => page.evaluate("document.documentElement.classList.contains('dark')")).toBe(true);
    for (const width of WIDTHS) await fits(page, width, "page-dark");
    expect(problems).toEqual([]);
  }, 90_000);

  it("names an answer's figures as the glossary does, sentiment on 0 to 100, each with its hint", async () => {
    const { page, problems } = await sessionPage(browser, installation, seeded.session, {
      ...OPTIONS,
      viewport: { width: 1280, height: 900 },
    });
    const result = await appCall<{ brand: { sentiment: number | null } | null; score: number }>(
      installation,
      seeded.session,
      "GET",
      `/workspaces/${seeded.workspaceId}/v1/results/${seeded.answerId}`,
    );
    const brandUrl = `${installation.base}/w/${seeded.workspaceId}/brands/${seeded.brandId}`;

    // The list: "Visibility score", never a bare "Score", and the hints once above the answers.
    await page.goto(`${brandUrl}/answers`);
    const items = page.locator("main ul.divide-y > li");
    await items.first().waitFor();
    const lines = await items.allTextContents();
    expect(lines.every((line) => /Visibility score \d+\.\d \/ 100/.test(line))).toBe(true);
    expect(lines.some((line) => /(^|[^y] )Score /.test(line))).toBe(false);
    expect(
      lines.some((line) => /[−+]\d\.\d\)/.test(line)),
      "no polarity on −1..+1",
    ).toBe(false);
    for (const id of ["sentiment", "visibility_score"] as const) {
      const hint = page.getByRole("button", { name: `About ${GLOSSARY[id].name}` });
      expect(await hint.count()).toBe(1);
      expect(await description(hint)).toBe(GLOSSARY[id].hint);
    }

    await page.goto(`${brandUrl}/answers/${seeded.answerId}`);
    const measured = page.locator('section[aria-labelledby="measure-title"]');
    await measured.waitFor();
    const fact = (name: string) => measured.locator("dl > div").filter({ has: page.getByText(name, { exact: true }) });
    expect(await fact("Sentiment").locator("dd").textContent()).toBe(sentimentWord(result.brand?.sentiment));
    expect(await fact("Sentiment").locator("dd").textContent()).toMatch(
      /^(positive|neutral|negative) \(\d+\.\d \/ 100\)$/,
    );
    expect(await fact("Visibility score").locator("dd").textContent()).toBe(`${result.score.toFixed(1)} / 100`);
    expect(await measured.getByText("(−1 to +1)").count()).toBe(0);

    for (const id of ["sentiment", "visibility_score"] as const) {
      const hint = measured.getByRole("button", { name: `About ${GLOSSARY[id].name}` });
      expect(await description(hint), `${id}'s hint read to screen readers`).toBe(GLOSSARY[id].hint);
    }

    // By keyboard: the hint opens on Enter, shows the glossary's words, and links to the entry.
    const sentiment = measured.getByRole("button", { name: "About Sentiment" });
    await sentiment.focus();
    await page.keyboard.press("Enter");
    const popover = page.getByRole("dialog", { name: "Sentiment" });
    await popover.waitFor();
    await popover.getByText(GLOSSARY.sentiment.hint, { exact: true }).waitFor();
    for (const width of WIDTHS) await fits(page, width, "answer-hint");
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.keyboard.press("Escape");
    await popover.waitFor({ state: "detached" });
    // Focus goes back to the hint once the popover has closed (a frame after it is gone).
    await expect
      .poll(() => page.evaluate("document.activeElement?.getAttribute('aria-label')"))
      .toBe("About Sentiment");

    await page.keyboard.press("Enter");
    await popover.getByRole("link", { name: "Full definition in the Glossary" }).click();
    await page.waitForURL(/\/glossary#sentiment$/);
    await expect
      .poll(() => page.locator("#sentiment").evaluate((el) => Math.round(el.getBoundingClientRect().top)))
      .toBeLessThan(200);
    await shot(page, "from-hint", 1280);
    expect(problems).toEqual([]);
  }, 90_000);
});
