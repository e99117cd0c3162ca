import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { WEB_ROOT } from "../../../server/src/http/web.ts";
import {
  expectAccessible,
  launchChromium,
  SCREENSHOTS,
  screenshot,
  watchProblems,
} from "../../../server/test/helpers/browser.ts";
import { DIALECTS } from "../../../server/test/helpers/databases.ts";
import {
  appCall,
  type BackgroundInstallation,
  type Installation,
  signUp,
  startInBackground,
  startInstallation,
} from "./installation.ts";

const OWNER = { name: "Ada Lovelace", email: "ada@example.com", password: "correct horse battery staple" };
const VIEWER = { name: "Vic Viewer", email: "vic@example.com", password: "viewer's own long password" };
const DATE = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric" });
const ENV = { LOG_LEVEL: "debug" };

/**
 * The owner's workspace as the first-run flow below leaves it, made through the dashboard's API:
 * Ada's account and "Acme agency", a key "ci" that the API honoured and that was then revoked, a
 * webhook endpoint, and Vic, a viewer who joined by invitation. Every secret of it is recorded.
 */
async function seedWorkspaceInUse(installation: Installation): Promise<void> {
  const owner = await signUp(installation, OWNER, { workspace_name: "Acme agency" });
  const workspace = `/workspaces/${owner.workspaceId}`;
  const key = await appCall<{ id: string; key: string }>(installation, owner.session, "POST", `${workspace}/api-keys`, {
    name: "ci",
    scopes: ["read", "projects"],
  });
  installation.secrets.push(key.key);
  const used = await fetch(`${installation.base}/v1/projects`, { headers: { authorization: `Bearer ${key.key}` } });
  if (used.status !== 200) throw new Error(`the seeded key was refused: ${used.status}`);
  await appCall(installation, owner.session, "DELETE", `${workspace}/api-keys/${key.id}`);
  const endpoint = await appCall<{ secret: string }>(installation, owner.session, "POST", `${workspace}/v1/webhooks`, {
    url: "https://93.184.216.34/sightline-hooks",
    events: ["analysis.completed"],
  });
  installation.secrets.push(endpoint.secret);
  const invitation = await appCall<{ link: string }>(installation, owner.session, "POST", `${workspace}/invitations`, {
    email: VIEWER.email,
    role: "viewer",
  });
  const token = invitation.link.slice(invitation.link.lastIndexOf("/") + 1);
  installation.secrets.push(token);
  await signUp(installation, VIEWER, { invitation: token });
}

/** The installation's logs hold none of its secrets (a session cookie's token part neither). */
function expectNoSecretInLogs(installation: Installation): void {
  const logs = installation.server.output();
  expect(logs).toContain('"msg":"request"');
  expect(installation.secrets.length).toBeGreaterThanOrEqual(6);
  for (const secret of installation.secrets) {
    const sessionToken = decodeURIComponent(secret).split(".")[0] ?? secret;
    expect(logs.includes(secret) || logs.includes(sessionToken), `a secret in the logs: ${secret.slice(0, 6)}…`).toBe(
      false,
    );
  }
}

/**
 * The dashboard as a new customer uses it, in a real Chromium against a real server (`sightline
 * all`, the built app, the database of the dialect): first account, Settings, an API key that the
 * API then honours, shown once and revocable, a viewer invited who can create nothing. Every screen
 * passes axe and is saved as a screenshot; nothing secret reaches the server's logs.
 *
 * Each test stands alone. The first run needs an installation nobody has set up yet: it gets one of
 * its own, started alongside the one the other tests use, which is seeded through the API with the
 * owner's workspace in use (seedWorkspaceInUse).
 */
describe.each(DIALECTS)("the dashboard in a browser [%s]", (dialect) => {
  let browser: Browser;
  let seeded: Installation;
  let fresh: BackgroundInstallation;
  const contexts: BrowserContext[] = [];

  async function newPage(width = 1280): Promise<{ page: Page; problems: string[] }> {
    const context = await browser.newContext({ viewport: { width, height: 900 }, locale: "en-US" });
    contexts.push(context);
    const page = await context.newPage();
    return { page, problems: watchProblems(page) };
  }

  const shot = (page: Page, name: string) => screenshot(page, `dashboard-${dialect}-${name}`);

  beforeAll(async () => {
    fresh = startInBackground(dialect, ENV);
    [browser, seeded] = await Promise.all([launchChromium(), startInstallation(dialect, ENV)]);
    await seedWorkspaceInUse(seeded);
  });
  afterEach(async () => {
    for (const context of contexts.splice(0)) await context.close();
  });
  afterAll(async () => {
    await browser?.close();
    await Promise.all([seeded?.stop(), fresh?.stop()]);
  });

  it("is built and served at /", async () => {
    const response = await fetch(`${seeded.base}/`);
    expect(response.status, `the dashboard must be built (${WEB_ROOT}): npm install or npm run build`).toBe(200);
    expect(response.headers.get("content-security-policy")).toContain("default-src 'self'");
  });

  it("takes a new customer from the first account to an API key the API honours, shown once, then revoked", async () => {
    const installation = await fresh.ready();
    const { base, server, secrets } = installation;
    secrets.push(OWNER.password, VIEWER.password);
    const { page, problems } = await newPage();
    await page.goto(`${base}/`);
    await page.waitForURL(/\/setup$/);
    await page.getByRole("heading", { name: "Create your account" }).waitFor();
    await expectAccessible(page, "first run");
    await shot(page, "01-first-run");

    await page.getByLabel("Setup code").fill(await server.setupCode());
    await page.getByLabel("Your name").fill(OWNER.name);
    await page.getByLabel("Work e-mail").fill(OWNER.email);
    await page.getByLabel("Password", { exact: true }).fill(OWNER.password);
    await page.getByLabel("Workspace name").fill("Acme agency");
    await page.getByRole("button", { name: "Create account" }).click();
    await page.waitForURL(/\/w\/ws_[^/]+$/);
    const workspaceId = /\/w\/(ws_[^/]+)$/.exec(page.url())?.[1] ?? "";
    await page.getByRole("heading", { level: 1 }).waitFor();
    await expectAccessible(page, "overview");
    await shot(page, "02-overview");

    await page.getByRole("link", { name: "Settings" }).first().click();
    await page.waitForURL(/\/settings/);
    await page.getByRole("heading", { name: "API keys" }).waitFor();
    await expectAccessible(page, "settings");
    await shot(page, "03-settings");

    // Create the key: a descriptive name and two of the eight labelled permissions.
    await page.getByRole("button", { name: "Create API key" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Name").fill("ci");
    expect(await dialog.getByRole("checkbox").count()).toBe(8);
    await dialog.getByRole("checkbox", { name: /^Read/ }).check();
    await dialog.getByRole("checkbox", { name: /^Projects/ }).check();
    await dialog.getByRole("button", { name: "Create key" }).click();
    const shown = dialog.getByRole("textbox", { name: "API key" });
    await shown.waitFor();
    const key = await shown.inputValue();
    secrets.push(key);
    expect(key).toMatch(/^sl_live_/);
    await expect.poll(() => dialog.getByText("cannot be shown again").count()).toBeGreaterThan(0);
    await expectAccessible(page, "new key");
    await shot(page, "04-key-shown-once");

    // The API honours it, within its scopes.
    const bearer = { authorization: `Bearer ${key}`, "content-type": "application/json" };
    expect((await fetch(`${base}/v1/projects`, { headers: bearer })).status).toBe(200);
    const analyze = await fetch(`${base}/v1/analyze`, { method: "POST", headers: bearer, body: "{}" });
    expect(analyze.status).toBe(403);
    expect(((await analyze.json()) as { error: { code: string } }).error.code).toBe("INSUFFICIENT_SCOPE");

    // Closed and reloaded: the value is nowhere, the key's name, permissions and expiry are listed.
    await dialog.getByRole("button", { name: "I have copied the key" }).click();
    await page.reload();
    const row = page.getByRole("row", { name: /ci/ });
    await row.waitFor();
    expect(await page.content()).not.toContain(key);
    const stored = String(await page.evaluate("JSON.stringify({ ...localStorage, ...sessionStorage })"));
    expect(stored).not.toContain(key);
    const rowText = (await row.textContent()) ?? "";
    expect(await row.getByText("read", { exact: true }).count()).toBeGreaterThan(0);
    expect(await row.getByText("projects", { exact: true }).count()).toBeGreaterThan(0);
    expect(rowText).toContain(DATE.format(new Date(Date.now() + 365 * 86_400_000)));

    // Revoked from Settings: the API refuses it within seconds.
    await page.getByRole("button", { name: "Revoke ci" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Revoke key" }).click();
    const revokedAt = Date.now();
    let status = 0;
    while (Date.now() - revokedAt < 5_000) {
      status = (await fetch(`${base}/v1/projects`, { headers: bearer })).status;
      if (status === 401) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(status).toBe(401);

    // A webhook endpoint: its signing secret is shown once too.
    await page.getByRole("button", { name: "Add endpoint" }).first().click();
    const hookDialog = page.getByRole("dialog");
    await hookDialog.getByLabel("Endpoint URL").fill("https://93.184.216.34/sightline-hooks");
    await hookDialog.getByRole("checkbox", { name: "analysis.completed" }).check();
    await hookDialog.getByRole("button", { name: "Add endpoint" }).click();
    const secret = await hookDialog.getByRole("textbox", { name: "Signing secret" }).inputValue();
    secrets.push(secret);
    expect(secret).toMatch(/^whsec_/);
    await hookDialog.getByRole("button", { name: "I have copied the secret" }).click();

    // Invite a viewer; the link is shown to copy (no SMTP here).
    await page.getByRole("button", { name: "Invite" }).first().click();
    const invite = page.getByRole("dialog");
    await invite.getByLabel("E-mail").fill(VIEWER.email);
    await invite.getByLabel("Role").click();
    await page.getByRole("option", { name: "Viewer" }).click();
    await invite.getByRole("button", { name: "Create invitation" }).click();
    const link = await invite.getByRole("textbox", { name: "Invitation link" }).inputValue();
    const token = link.slice(link.lastIndexOf("/") + 1);
    secrets.push(token);
    await shot(page, "05-invitation-link");
    await invite.getByRole("button", { name: "Done" }).click();

    // The viewer joins, sees the workspace, and no way to create a key.
    const viewer = await newPage();
    await viewer.page.goto(`${base}/invite/${token}`);
    await viewer.page.getByText("Acme agency").first().waitFor();
    await expectAccessible(viewer.page, "invitation");
    await shot(viewer.page, "06-invitation");
    await viewer.page.getByLabel("Your name").fill(VIEWER.name);
    await viewer.page.getByLabel("Password", { exact: true }).fill(VIEWER.password);
    await viewer.page.getByRole("button", { name: /Create account and join/ }).click();
    await viewer.page.waitForURL(new RegExp(`/w/${workspaceId}`));
    await viewer.page.goto(`${base}/w/${workspaceId}/settings`);
    await viewer.page.getByRole("heading", { name: "API keys" }).waitFor();
    await viewer.page.getByRole("heading", { name: "Members" }).waitFor();
    expect(await viewer.page.getByRole("button", { name: "Create API key" }).count()).toBe(0);
    expect(await viewer.page.getByRole("button", { name: "Invite" }).count()).toBe(0);
    await expectAccessible(viewer.page, "settings as a viewer");
    await shot(viewer.page, "07-settings-viewer");
    // Nor through any request of its session.
    const attempts = await viewer.page.evaluate(async (ws) => {
      const post = (path: string, body: unknown) =>
        fetch(path, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        }).then((r) => r.status);
      return [
        await post(`/app/api/workspaces/${ws}/api-keys`, { name: "mine", scopes: ["read"] }),
        await post(`/app/api/workspaces/${ws}/v1/projects`, { name: "V", primary_domain: "v.example.com" }),
        await post(`/app/api/workspaces/${ws}/v1/webhooks`, {
          url: "https://93.184.216.34/x",
          events: ["project.created"],
        }),
      ];
    }, workspaceId);
    expect(attempts).toEqual([403, 403, 403]);
    const keys = await viewer.page.evaluate(
      async (ws) => (await (await fetch(`/app/api/workspaces/${ws}/api-keys`)).json()) as { data: unknown[] },
      workspaceId,
    );
    expect(keys.data).toHaveLength(1);

    // The other screens, at a desk and on a phone.
    await page.goto(`${base}/account`);
    await page.getByRole("heading", { name: "Change password" }).waitFor();
    await expectAccessible(page, "account");
    await shot(page, "08-account");
    const phone = await newPage(390);
    await phone.page.goto(`${base}/sign-in`);
    await phone.page.getByLabel("E-mail").fill(OWNER.email);
    await expectAccessible(phone.page, "sign-in on a phone");
    await shot(phone.page, "09-sign-in-phone");
    await phone.page.getByLabel("Password", { exact: true }).fill(OWNER.password);
    await phone.page.getByRole("button", { name: "Sign in" }).click();
    await phone.page.waitForURL(/\/w\/ws_/);
    await expectAccessible(phone.page, "overview on a phone");
    await shot(phone.page, "10-overview-phone");
    await phone.page.goto(`${base}/w/${workspaceId}/settings`);
    await phone.page.getByRole("heading", { name: "API keys" }).waitFor();
    await expectAccessible(phone.page, "settings on a phone");
    await shot(phone.page, "11-settings-phone");
    const width = Number(await phone.page.evaluate("document.documentElement.scrollWidth"));
    expect(width, "nothing wider than the phone").toBeLessThanOrEqual(390);
    const forgot = await newPage();
    await forgot.page.goto(`${base}/forgot-password`);
    await forgot.page.getByRole("heading").first().waitFor();
    await expectAccessible(forgot.page, "forgot password");
    await shot(forgot.page, "12-forgot-password");

    for (const context of contexts) {
      for (const cookie of await context.cookies()) if (cookie.name.includes("session")) secrets.push(cookie.value);
    }
    expect(problems).toEqual([]);
    expect(viewer.problems).toEqual([]);
    // Its own installation's logs: what the test below checks of the seeded one.
    expectNoSecretInLogs(installation);
    console.log(`dashboard screenshots (${dialect}): ${SCREENSHOTS}`);
  }, 180_000);

  it("works with the keyboard alone: sign in, open and close a dialog, reach every control", async () => {
    const { base } = seeded;
    const { page, problems } = await newPage();
    await page.goto(`${base}/sign-in`);
    await page.getByLabel("E-mail").waitFor();
    // Tab from the top of the page to the e-mail field, type, tab to the password, Enter submits.
    for (let i = 0; i < 10; i++) {
      await page.keyboard.press("Tab");
      if (await page.getByLabel("E-mail").evaluate((el) => el === el.ownerDocument.activeElement)) break;
    }
    await page.keyboard.type(OWNER.email);
    await page.keyboard.press("Tab");
    await page.keyboard.type(OWNER.password);
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/w\/ws_/);
    await page.goto(`${page.url()}/settings`);
    const create = page.getByRole("button", { name: "Create API key" });
    await create.focus();
    await page.keyboard.press("Enter");
    await page.getByRole("dialog").getByLabel("Name").waitFor();
    // Focus moved into the dialog; Escape closes it and gives focus back to the button.
    expect(
      await page
        .getByRole("dialog")
        .getByLabel("Name")
        .evaluate((el) => el === el.ownerDocument.activeElement),
    ).toBe(true);
    await page.keyboard.press("Escape");
    await expect.poll(() => page.getByRole("dialog").count()).toBe(0);
    // Focus goes back to the button that opened it once the dialog has closed (a moment after it leaves the page).
    await expect.poll(() => create.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
    // Every button and link on the page can be reached with Tab.
    const reachable = new Set<string>();
    for (let i = 0; i < 120; i++) {
      await page.keyboard.press("Tab");
      const name = String(
        await page.evaluate(
          "document.activeElement && (document.activeElement.getAttribute('aria-label') || document.activeElement.textContent || '').trim()",
        ),
      );
      reachable.add(name);
    }
    for (const name of ["Create API key", "Add endpoint", "Invite", "Delete workspace"]) {
      expect(
        [...reachable].some((seen) => seen.includes(name)),
        `${name} is reachable with Tab`,
      ).toBe(true);
    }
    expect(problems).toEqual([]);
  }, 60_000);

  it("writes no secret to its logs: passwords, API keys, webhook secrets, invitation tokens, sessions", () => {
    expectNoSecretInLogs(seeded);
  });
});
