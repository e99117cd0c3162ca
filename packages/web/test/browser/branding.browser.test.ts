import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { dataUrl, GIF, png } from "../../../server/test/branding/png.ts";
import { expectAccessible, launchChromium, SCREENSHOTS, screenshot } from "../../../server/test/helpers/browser.ts";
import {
  appCall,
  type Installation,
  type Session,
  type SignedInPage,
  signedInPage,
  signUp,
  startInstallation,
} from "./installation.ts";
import { expectNoSidewaysScroll } from "./screens.ts";

const OWNER = { name: "Maya", email: "maya@example.com", password: "a long enough password" };
const VIEWER = { name: "Client", email: "client@example.com", password: "another long password" };
/** A wide green logo, as an agency would upload. */
const LOGO = png({ width: 120, height: 32, rgb: [0x0b, 0x7a, 0x4b] });

interface Branding {
  name: string;
  logo: string | null;
  primary: string;
  accent: string;
  show_sightline: boolean;
}

/**
 * Settings → Branding in a real Chromium against `sightline all`: an owner names the workspace as
 * its clients should see it, uploads a PNG logo (a GIF is refused before it goes), picks a colour,
 * hides "Made with Sightline", saves, reloads and finds it all; a viewer sees it without being able
 * to change it. At 1280 and 390 px. One dialect: the storage is tested on both elsewhere.
 */
describe("Settings → Branding in a browser", () => {
  let installation: Installation;
  let browser: Browser;
  let ws: string;
  let owner: Session;
  const opened: SignedInPage[] = [];

  beforeAll(async () => {
    [installation, browser] = await Promise.all([startInstallation("sqlite"), launchChromium()]);
    const signed = await signUp(installation, OWNER, { workspace_name: "Acme marketing" });
    ws = signed.workspaceId;
    owner = signed.session;
    const invitation = await appCall<{ link: string }>(installation, owner, "POST", `/workspaces/${ws}/invitations`, {
      email: VIEWER.email,
      role: "viewer",
    });
    await signUp(installation, VIEWER, { invitation: invitation.link.slice(invitation.link.lastIndexOf("/") + 1) });
  }, 60_000);

  afterEach(async () => {
    for (const { context } of opened.splice(0)) await context.close();
  });

  afterAll(async () => {
    await browser?.close();
    await installation?.stop();
  });

  async function page(width: number, account = OWNER) {
    const signed = await signedInPage(browser, installation, account, {
      viewport: { width, height: 900 },
      reducedMotion: "reduce",
    });
    opened.push(signed);
    return signed;
  }

  it("sets the name, a logo and a colour, hides Sightline, and finds them after a reload", async () => {
    const { page: desk, problems } = await page(1280);
    await desk.goto(`${installation.base}/w/${ws}/settings#branding`);
    const card = desk.locator("#branding");
    const name = card.getByLabel("Name clients see");
    await expect.poll(() => name.inputValue()).toBe("Acme marketing");
    await card.getByText("Leave it empty to use the workspace's name, “Acme marketing”.", { exact: false }).waitFor();
    expect(await card.getByRole("button", { name: "Save branding" }).isDisabled()).toBe(true);

    await name.fill("Northwind Digital");
    // A GIF is refused in the browser, with what to do instead.
    const upload = card.getByLabel("Upload logo");
    await upload.setInputFiles({ name: "logo.gif", mimeType: "image/gif", buffer: GIF });
    await card.getByText("Choose a PNG or JPEG image").waitFor();
    await upload.setInputFiles({ name: "northwind.png", mimeType: "image/png", buffer: LOGO });
    const preview = card.getByRole("img", { name: "Logo preview" });
    await preview.waitFor();
    expect(await preview.getAttribute("src")).toBe(dataUrl(LOGO));
    expect(await card.getByText("Choose a PNG or JPEG image").count()).toBe(0);
    await card.getByLabel("Main colour", { exact: true }).fill("#0b7a4b");
    const credit = card.getByRole("checkbox", { name: "Show “Made with Sightline” on reports and e-mails" });
    expect(await credit.getAttribute("aria-checked")).toBe("true");
    await credit.click();
    // The preview follows the form before anything is saved.
    const figure = card.locator("figure");
    await figure.getByText("Northwind Digital").waitFor();
    expect(await figure.getByText("Made with Sightline").count()).toBe(0);
    await card.getByText("You have changes that are not saved yet.").waitFor();
    await expectAccessible(desk, "branding settings, edited");
    await card.screenshot({ path: join(SCREENSHOTS, "branding-card-edited-1280.png") });

    await card.getByRole("button", { name: "Save branding" }).click();
    await desk.getByText("Branding saved").waitFor();
    const saved = await appCall<Branding>(installation, owner, "GET", `/workspaces/${ws}/branding`);
    expect(saved).toMatchObject({
      name: "Northwind Digital",
      logo: dataUrl(LOGO),
      primary: "#0b7a4b",
      accent: "#d2691e",
      show_sightline: false,
    });

    await desk.reload();
    const again = desk.locator("#branding");
    await expect.poll(() => again.getByLabel("Name clients see").inputValue()).toBe("Northwind Digital");
    expect(await again.getByRole("img", { name: "Logo preview" }).getAttribute("src")).toBe(dataUrl(LOGO));
    expect(await again.getByLabel("Main colour", { exact: true }).inputValue()).toBe("#0b7a4b");
    expect(await again.getByLabel("Main colour: pick").inputValue()).toBe("#0b7a4b");
    expect(
      await again
        .getByRole("checkbox", { name: "Show “Made with Sightline” on reports and e-mails" })
        .getAttribute("aria-checked"),
    ).toBe("false");
    expect(await again.getByRole("button", { name: "Save branding" }).isDisabled()).toBe(true);
    await again.scrollIntoViewIfNeeded();
    await expectAccessible(desk, "branding settings, saved");
    await screenshot(desk, "branding-settings-1280");
    await again.screenshot({ path: join(SCREENSHOTS, "branding-card-1280.png") });
    expect(problems).toEqual([]);
  }, 90_000);

  it("fits a 390 px phone, and a viewer sees the branding without being able to change it", async () => {
    const { page: phone, problems } = await page(390, VIEWER);
    await phone.goto(`${installation.base}/w/${ws}/settings#branding`);
    const card = phone.locator("#branding");
    await card.getByText("Only admins and owners can change the branding.").waitFor();
    await expect.poll(() => card.getByLabel("Name clients see").inputValue()).toBe("Northwind Digital");
    expect(await card.getByRole("button", { name: "Save branding" }).count()).toBe(0);
    expect(await card.getByLabel("Upload logo").count()).toBe(0);
    expect(await card.getByLabel("Main colour", { exact: true }).isDisabled()).toBe(true);
    await card.getByText("“Sightline” appears nowhere on reports and e-mails.").waitFor();
    await card.scrollIntoViewIfNeeded();
    await expectNoSidewaysScroll(phone, 390, "branding settings");
    await expectAccessible(phone, "branding settings at 390 px, viewer");
    await card.screenshot({ path: join(SCREENSHOTS, "branding-card-390-viewer.png") });
    expect(problems).toEqual([]);

    // The owner's form on the same phone: every control within the screen.
    const { page: ownerPhone, problems: ownerProblems } = await page(390);
    await ownerPhone.goto(`${installation.base}/w/${ws}/settings#branding`);
    const form = ownerPhone.locator("#branding");
    await form.getByRole("button", { name: "Save branding" }).waitFor();
    await expectNoSidewaysScroll(ownerPhone, 390, "branding settings, owner");
    for (const control of [
      form.getByLabel("Name clients see"),
      form.getByRole("button", { name: "Remove logo" }),
      form.getByLabel("Highlight colour", { exact: true }),
      form.getByRole("button", { name: "Save branding" }),
    ]) {
      const box = await control.boundingBox();
      expect(box !== null && box.x >= 0 && box.x + box.width <= 390).toBe(true);
    }
    await expectAccessible(ownerPhone, "branding settings at 390 px");
    await screenshot(ownerPhone, "branding-settings-390");
    await form.screenshot({ path: join(SCREENSHOTS, "branding-card-390.png") });
    expect(ownerProblems).toEqual([]);
  }, 90_000);
});
