import { createHash, randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { expectAccessible, launchChromium, SCREENSHOTS, screenshot } from "../../../server/test/helpers/browser.ts";
import {
  appCall,
  type Installation,
  openPage,
  type Session,
  type SignedInPage,
  signedInPage,
  signUp,
  startInstallation,
} from "./installation.ts";
import { expectNoSidewaysScroll } from "./screens.ts";

const OWNER = { name: "Maya Owner", email: "maya@example.com", password: "a long enough password" };
const VIEWER = { name: "Vic Viewer", email: "vic@example.com", password: "viewer's own long password" };
const WIDTHS = [1280, 390] as const;
const DESK = { viewport: { width: 1280, height: 900 }, locale: "en-US", reducedMotion: "reduce" } as const;

interface ConnectedApp {
  client: { name: string };
  status: string;
  last_used_at: string | null;
}

/** The application's side: a redirect URI on this machine that records where the browser came back with. */
class Callback {
  readonly hits: URL[] = [];
  #server: Server | undefined;
  url = "";

  async start(): Promise<this> {
    this.#server = createServer((request, response) => {
      const url = new URL(request.url ?? "/", this.url);
      if (url.pathname === "/callback") this.hits.push(url);
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      response.end(
        '<!doctype html><html lang="en"><title>Back in the app</title><p>You can close this tab.</p></html>',
      );
    });
    await new Promise<void>((done) => this.#server?.listen(0, "127.0.0.1", done));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/callback`;
    return this;
  }

  stop(): Promise<void> {
    return new Promise((done) => (this.#server ? this.#server.close(() => done()) : done()));
  }
}

/** A PKCE pair (RFC 7636): a random verifier and its S256 challenge. */
function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(48).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

/**
 * Signing an assistant in to the MCP server with OAuth, in a real Chromium against `sightline all`:
 * the application registers itself and sends the signed-out member to `/oauth/authorize`; they sign
 * in, come back to the consent page (axe-clean at 1280 and 390 px), allow, and the application gets
 * its code (with the state and the issuer), exchanges it with the PKCE verifier, and calls /mcp.
 * Settings → Connected apps shows the app with its last use; disconnecting it there makes /mcp
 * refuse the token, pointing at the resource metadata. A viewer is offered `read` only, `analyze`
 * disabled with the reason, and Cancel sends the application `access_denied` with its state exactly
 * as sent. An unknown application gets a page that says so, with nothing to allow.
 */
describe("connecting an application (OAuth for MCP) in a browser", () => {
  let installation: Installation;
  let browser: Browser;
  let callback: Callback;
  let owner: Session;
  let ws = "";
  const opened: SignedInPage[] = [];

  beforeAll(async () => {
    [installation, browser, callback] = await Promise.all([
      startInstallation("sqlite"),
      launchChromium(),
      new Callback().start(),
    ]);
    const signed = await signUp(installation, OWNER, { workspace_name: "Acme marketing" });
    owner = signed.session;
    ws = signed.workspaceId;
    const invitation = await appCall<{ link: string }>(installation, owner, "POST", `/workspaces/${ws}/invitations`, {
      email: VIEWER.email,
      role: "viewer",
    });
    await signUp(installation, VIEWER, { invitation: invitation.link.slice(invitation.link.lastIndexOf("/") + 1) });
  }, 90_000);

  afterEach(async ({ task }) => {
    if (task.result?.state === "fail") console.log(`server output:\n${installation?.server.output().slice(-6000)}`);
    for (const { context } of opened.splice(0)) await context.close();
  });

  afterAll(async () => {
    await browser?.close();
    await installation?.stop();
    await callback?.stop();
  });

  /** Dynamic client registration (RFC 7591), as an assistant does it before its first sign-in. */
  async function register(name: string): Promise<string> {
    const response = await fetch(`${installation.base}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ client_name: name, redirect_uris: [callback.url], token_endpoint_auth_method: "none" }),
    });
    expect(response.status).toBe(201);
    return ((await response.json()) as { client_id: string }).client_id;
  }

  function authorizeUrl(clientId: string, challenge: string, state: string): string {
    const query = new URLSearchParams({
      response_type: "code",
      client_id: clientId,
      redirect_uri: callback.url,
      code_challenge: challenge,
      code_challenge_method: "S256",
      scope: "read analyze",
      state,
    });
    return `${installation.base}/oauth/authorize?${query.toString().replaceAll("+", "%20")}`;
  }

  /**
   * The screen as it is now at each width: axe, nothing wider than the screen, a screenshot (and one
   * of `part`, on a long page); then back to the desk.
   */
  async function screens(page: Page, name: string, part?: Locator): Promise<void> {
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await expectAccessible(page, `${name} at ${width} px`);
      await expectNoSidewaysScroll(page, width, name);
      await screenshot(page, `connect-app-${name}-${width}`);
      await part?.screenshot({ path: join(SCREENSHOTS, `connect-app-${name}-card-${width}.png`) });
    }
    await page.setViewportSize(DESK.viewport);
  }

  /** Where the browser came back to the application, once it has. */
  async function backAtApplication(page: Page, from: number): Promise<URL> {
    await page.waitForURL((url) => url.href.startsWith(callback.url));
    await expect.poll(() => callback.hits.length).toBeGreaterThan(from);
    return callback.hits[from] as URL;
  }

  function mcp(token: string): Promise<Response> {
    return fetch(`${installation.base}/mcp`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
  }

  it("signs in, allows, and the application gets a code it exchanges for a token; Settings disconnects it", async () => {
    const clientId = await register("Claude");
    const { verifier, challenge } = pkce();
    const opening = await openPage(browser, DESK);
    opened.push(opening);
    const { page, problems } = opening;

    // Signed out: sign in first, then straight on to the consent page with the request intact.
    await page.goto(authorizeUrl(clientId, challenge, "xyz"));
    await page.waitForURL(/\/sign-in\?redirect=/);
    expect(decodeURIComponent(new URL(page.url()).searchParams.get("redirect") ?? "")).toMatch(/^\/connect\?/);
    await page.getByLabel("E-mail").fill(OWNER.email);
    await page.getByLabel("Password", { exact: true }).fill(OWNER.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(/\/connect\?/);
    const consent = new URL(page.url()).searchParams;
    expect(consent.get("client_id")).toBe(clientId);
    expect(consent.get("state")).toBe("xyz");
    expect(consent.get("code_challenge")).toBe(challenge);

    await page.getByRole("heading", { name: "Claude wants to connect to Sightline" }).waitFor();
    await page.getByText(new URL(callback.url).host, { exact: true }).waitFor();
    await page.getByRole("combobox", { name: "Workspace" }).getByText("Acme marketing · Owner").waitFor();
    const read = page.getByRole("checkbox", { name: "Read" });
    const analyze = page.getByRole("checkbox", { name: "Analyze" });
    expect(await read.isChecked()).toBe(true);
    expect(await analyze.isChecked()).toBe(true);
    expect(await analyze.isDisabled()).toBe(false);
    // Only what was asked for is offered.
    expect(await page.getByRole("checkbox").count()).toBe(2);
    await screens(page, "consent-owner");

    // Allow stays possible only while something is ticked.
    await read.click();
    await analyze.click();
    expect(await page.getByRole("button", { name: "Allow" }).isDisabled()).toBe(true);
    await read.click();
    await analyze.click();

    const before = callback.hits.length;
    await page.getByRole("button", { name: "Allow" }).click();
    const back = await backAtApplication(page, before);
    expect(back.searchParams.get("state")).toBe("xyz");
    expect(back.searchParams.get("iss")).toBe(installation.base);
    const code = back.searchParams.get("code") ?? "";
    expect(code).not.toBe("");
    installation.secrets.push(code);

    const exchanged = await fetch(`${installation.base}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code,
        redirect_uri: callback.url,
        code_verifier: verifier,
        client_id: clientId,
      }).toString(),
    });
    expect(exchanged.status).toBe(200);
    const tokens = (await exchanged.json()) as { access_token: string; refresh_token: string; scope: string };
    installation.secrets.push(tokens.access_token, tokens.refresh_token);
    expect(tokens.scope).toBe("read analyze");
    expect((await mcp(tokens.access_token)).status).toBe(200);

    // The last use is written in batches (every few seconds): wait for it before looking.
    await expect
      .poll(
        async () => {
          const apps = await appCall<{ data: ConnectedApp[] }>(
            installation,
            owner,
            "GET",
            `/workspaces/${ws}/connected-apps`,
          );
          return apps.data.find((app) => app.client.name === "Claude")?.last_used_at ?? null;
        },
        { timeout: 20_000, interval: 500 },
      )
      .not.toBeNull();

    await page.goto(`${installation.base}/w/${ws}/settings#connected-apps`);
    const card = page.locator("#connected-apps");
    const row = card.getByRole("row").filter({ hasText: "Claude" });
    await row.waitFor();
    // The phone's copy of each cell is there too, hidden: look at what shows.
    const shown = (text: string) => row.getByText(text, { exact: true }).filter({ visible: true });
    await shown(OWNER.name).waitFor();
    await shown("Active").waitFor();
    expect(await row.getByRole("list", { name: "Permissions of Claude" }).first().textContent()).toBe("ReadAnalyze");
    // Used a moment ago: not "Never".
    expect(await row.locator("time").count()).toBeGreaterThanOrEqual(2);
    expect(await row.getByText("Never", { exact: true }).count()).toBe(0);
    await card.scrollIntoViewIfNeeded();
    await screens(page, "settings-connected", card);

    await row.getByRole("button", { name: "Disconnect Claude" }).click();
    const dialog = page.getByRole("alertdialog");
    await dialog.getByRole("heading", { name: "Disconnect Claude?" }).waitFor();
    await expectAccessible(page, "disconnect dialog");
    await dialog.getByRole("button", { name: "Disconnect", exact: true }).click();
    await dialog.waitFor({ state: "detached" });
    await shown("Revoked").waitFor();
    expect(await row.getByRole("button", { name: "Disconnect Claude" }).count()).toBe(0);
    await screens(page, "settings-revoked", card);

    const refused = await mcp(tokens.access_token);
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate") ?? "").toContain("resource_metadata=");
    expect(problems).toEqual([]);
  }, 120_000);

  it("offers a viewer read only, says why analyze is not, and Cancel sends the state back as it came", async () => {
    const clientId = await register("Claude");
    const { challenge } = pkce();
    // A state the router would read as a number if it read it as JSON: it must come back to the letter.
    const state = "12345678901234567890123";
    const signed = await signedInPage(browser, installation, VIEWER, DESK);
    opened.push(signed);
    const { page, problems } = signed;

    await page.goto(authorizeUrl(clientId, challenge, state));
    await page.waitForURL(/\/connect\?/);
    await page.getByRole("heading", { name: "Claude wants to connect to Sightline" }).waitFor();
    await page.getByRole("combobox", { name: "Workspace" }).getByText("Acme marketing · Viewer").waitFor();
    const read = page.getByRole("checkbox", { name: "Read" });
    const analyze = page.getByRole("checkbox", { name: "Analyze" });
    expect(await read.isChecked()).toBe(true);
    expect(await analyze.isDisabled()).toBe(true);
    expect(await analyze.isChecked()).toBe(false);
    const reason = page.locator(`[id="${await analyze.getAttribute("aria-describedby")}"]`);
    expect(await reason.textContent()).toBe("Your role (viewer) cannot grant this.");
    expect(await page.getByRole("button", { name: "Allow" }).isDisabled()).toBe(false);
    await screens(page, "consent-viewer");

    const before = callback.hits.length;
    await page.getByRole("button", { name: "Cancel" }).click();
    const back = await backAtApplication(page, before);
    expect(back.searchParams.get("error")).toBe("access_denied");
    expect(back.searchParams.get("state")).toBe(state);
    expect(back.searchParams.get("code")).toBeNull();
    expect(problems).toEqual([]);
  }, 60_000);

  it("an application this server does not know gets a page that says so, with nothing to allow", async () => {
    const signed = await signedInPage(browser, installation, OWNER, DESK);
    opened.push(signed);
    const { page, problems } = signed;
    await page.goto(authorizeUrl("mcp_unknown_client", pkce().challenge, "xyz"));
    await page.waitForURL(/\/connect\?/);
    await page.getByRole("heading", { name: "This connection request cannot be used" }).waitFor();
    await page.getByText(/not registered with this Sightline server/).waitFor();
    expect(await page.getByRole("button", { name: "Allow" }).count()).toBe(0);
    await page.getByRole("link", { name: "Go to Sightline" }).waitFor();
    await screens(page, "consent-unknown");
    // The 400 of the request's preview is the page's answer, not a failure of the page.
    expect(problems.filter((problem) => !/status of 400/.test(problem))).toEqual([]);
  }, 60_000);
});
