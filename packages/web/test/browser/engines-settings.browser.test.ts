import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { expectAccessible, launchChromium, SCREENSHOTS, screenshot } from "../../../server/test/helpers/browser.ts";
import { type FakeChatCompletions, startFakeChatCompletions } from "../../../server/test/helpers/fake-vendors/index.ts";
import {
  appCall,
  type Installation,
  type SignedInPage,
  signedInPage,
  signUp,
  startInstallation,
} from "./installation.ts";

const OWNER = { name: "Maya", email: "maya@example.com", password: "a long enough password" };
const KEY = "house-llm-key-Zq81";

/**
 * Settings → Engines in a real Chromium against `sightline all`: an OpenAI-compatible engine of the
 * workspace's own, pointed at a local fake vendor, is added and its "Test connection" shows its
 * answer; a key is set for ChatGPT and only its last four characters come back; the Run dialog
 * offers the engines that can answer first and disables the others with the reason. At 1280 and
 * 390 px, where the Settings tab row scrolls instead of being cut off. One dialect: the storage is
 * tested on both elsewhere.
 */
describe("Settings → Engines in a browser", () => {
  let installation: Installation;
  let browser: Browser;
  let vendor: FakeChatCompletions;
  let ws: string;
  let project: { id: string };
  const opened: SignedInPage[] = [];

  beforeAll(async () => {
    vendor = await startFakeChatCompletions({ flavour: "plain" });
    vendor.setAnswer({ text: "Hello from the house Llama.", citations: [] });
    [installation, browser] = await Promise.all([
      startInstallation("sqlite", { SIGHTLINE_WEBHOOK_ALLOW_PRIVATE: "true" }),
      launchChromium(),
    ]);
    const owner = await signUp(installation, OWNER, { workspace_name: "Acme marketing" });
    ws = owner.workspaceId;
    project = await appCall<{ id: string }>(installation, owner.session, "POST", `/workspaces/${ws}/v1/projects`, {
      name: "Acme CRM",
      primary_domain: "acmecrm.com",
      prompts: ["best CRM for a small agency"],
      engines: ["sandbox"],
    });
  }, 60_000);

  afterEach(async () => {
    for (const { context } of opened.splice(0)) await context.close();
  });

  afterAll(async () => {
    await browser?.close();
    await installation?.stop();
    await vendor?.stop();
  });

  async function page(width: number) {
    const signed = await signedInPage(browser, installation, OWNER, {
      viewport: { width, height: 900 },
      reducedMotion: "reduce",
    });
    opened.push(signed);
    return signed;
  }

  it("adds a custom engine, tests it, sets a key shown only by its last four characters", async () => {
    const { page: desk, problems } = await page(1280);
    await desk.goto(`${installation.base}/w/${ws}/settings#engines`);
    const card = desk.locator("#engines");
    await card.getByRole("heading", { name: "ChatGPT", exact: true }).waitFor();
    await expect.poll(() => card.getByText("No key yet").count()).toBeGreaterThan(0);

    await card.getByRole("button", { name: "Add engine" }).click();
    const dialog = desk.getByRole("dialog");
    await dialog.getByLabel("Name", { exact: true }).fill("House Llama");
    await dialog.getByLabel("Base URL").fill(`${vendor.url}/v1`);
    await dialog.getByLabel("Model").fill("llama3.1");
    await dialog.getByLabel("API key (optional)").fill(KEY);
    await expectAccessible(desk, "add engine dialog");
    await dialog.getByRole("button", { name: "Add engine" }).click();
    await dialog.waitFor({ state: "detached" });
    const house = card.locator("li").filter({ has: desk.getByRole("heading", { name: "House Llama" }) });
    await house.getByText("Your key •••• Zq81").waitFor();

    await house.getByRole("button", { name: "Test connection to House Llama" }).click();
    await house.getByText("“Hello from the house Llama.”").waitFor();
    expect(vendor.requests.at(-1)?.headers.authorization).toBe(`Bearer ${KEY}`);

    // ChatGPT: a key typed into a password field, never shown again.
    const chatgpt = card.locator("li").filter({ has: desk.getByRole("heading", { name: "ChatGPT", exact: true }) });
    await chatgpt.getByRole("button", { name: "Add key for ChatGPT" }).click();
    const connect = desk.getByRole("dialog");
    const field = connect.getByLabel("API key", { exact: true });
    expect(await field.getAttribute("type")).toBe("password");
    await field.fill("sk-workspace-only-key-abcd");
    await connect.getByRole("button", { name: "Save" }).click();
    await connect.waitFor({ state: "detached" });
    await chatgpt.getByText("Your key •••• abcd").waitFor();
    expect(await desk.content()).not.toContain("sk-workspace-only-key");

    await expectAccessible(desk, "settings engines");
    await screenshot(desk, "engines-settings-1280");
    await card.screenshot({ path: join(SCREENSHOTS, "engines-card-1280.png") });
    expect(problems).toEqual([]);
  }, 90_000);

  it("the Run dialog offers engines that can answer first and says why the others cannot", async () => {
    const { page: desk, problems } = await page(1280);
    await desk.goto(`${installation.base}/w/${ws}/brands/${project.id}/analyses`);
    await desk
      .getByRole("button", { name: /Run analysis now/ })
      .first()
      .click();
    const dialog = desk.getByRole("dialog");
    const claudeNote = dialog.locator("p", { hasText: "No key yet" }).first();
    await claudeNote.waitFor();
    expect(await dialog.getByRole("checkbox", { name: "Claude" }).isDisabled()).toBe(true);
    expect(await dialog.getByRole("checkbox", { name: "House Llama" }).isDisabled()).toBe(false);
    await dialog.getByRole("link", { name: "Connect them in Settings → Engines" }).waitFor();
    const labels = await dialog.locator("fieldset label").allTextContents();
    expect(labels.indexOf("House Llama")).toBeLessThan(labels.indexOf("Claude"));
    await expectAccessible(desk, "run dialog engines");
    await screenshot(desk, "engines-run-dialog-1280");
    expect(problems).toEqual([]);
  }, 60_000);

  it("at 390 px the Settings tabs scroll instead of being cut off, and the engines fit", async () => {
    const { page: phone, problems } = await page(390);
    await phone.goto(`${installation.base}/w/${ws}/settings`);
    const tabs = phone.getByRole("navigation", { name: "Settings sections" });
    await tabs.getByRole("link", { name: "Workspace" }).waitFor();
    await phone.screenshot({
      path: join(SCREENSHOTS, "settings-tabs-390-start.png"),
      clip: { x: 0, y: 0, width: 390, height: 260 },
    });
    // A string: the tests are typed without the DOM's types.
    const widths = (await phone.evaluate(`(() => {
      const nav = document.querySelector('nav[aria-label="Settings sections"]');
      return { page: document.documentElement.scrollWidth, nav: nav.clientWidth, row: nav.scrollWidth };
    })()`)) as { page: number; nav: number; row: number };
    expect(widths.page).toBeLessThanOrEqual(390);
    expect(widths.nav).toBeLessThanOrEqual(390);
    expect(widths.row).toBeGreaterThan(widths.nav);
    // The last tab is reached by scrolling the row.
    const last = tabs.getByRole("link", { name: "Workspace" });
    await last.scrollIntoViewIfNeeded();
    await phone.screenshot({
      path: join(SCREENSHOTS, "settings-tabs-390.png"),
      clip: { x: 0, y: 0, width: 390, height: 260 },
    });
    const box = await last.boundingBox();
    expect(box !== null && box.x >= 0 && box.x + box.width <= 390).toBe(true);
    await phone.locator("#engines").getByRole("heading", { name: "House Llama" }).waitFor();
    await expectAccessible(phone, "settings engines at 390 px");
    await screenshot(phone, "engines-settings-390");
    // What a phone shows first: the tab row, scrolled to its end, and the first engines.
    await phone.locator("#engines").scrollIntoViewIfNeeded();
    await phone.screenshot({ path: join(SCREENSHOTS, "engines-settings-390-top.png") });
    expect(problems).toEqual([]);
  }, 60_000);
});
