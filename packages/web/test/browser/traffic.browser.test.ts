import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createRuntime } from "../../../server/src/app/runtime.ts";
import { createLogger } from "../../../server/src/lib/logger.ts";
import { checkAccess } from "../../../server/src/services/traffic/access.ts";
import { HttpPageFetcher, type PageFetcher } from "../../../server/src/services/websites/fetcher.ts";
import { workspaceContext } from "../../../server/src/services/workspaces/workspaces.ts";
import { expectAccessible, launchChromium, SCREENSHOTS, screenshot } from "../../../server/test/helpers/browser.ts";
import { TEST_SECRET_KEY } from "../../../server/test/helpers/harness.ts";
import { Site } from "../../../server/test/helpers/website.ts";
import { appCall, type Installation, type Session, sessionPage, signUp, startInstallation } from "./installation.ts";
import { expectNoSidewaysScroll } from "./screens.ts";

const OWNER = { name: "Mia Marketer", email: "mia@northwind.example.com", password: "a long enough password for mia" };
const DOMAIN = "northwind-crm.test";
const OPTIONS = { locale: "en-US", reducedMotion: "reduce", acceptDownloads: true } as const;
/** The browser's upload cut into 8 MiB batches: the log is made larger than two of them. */
const LOG_BYTES = 18 * 1024 * 1024;

// The crawlers' published ranges, the test's own (documentation addresses): GPTBot and OAI-SearchBot
// are verified from them, and a GPTBot from elsewhere is spoofed.
const dir = mkdtempSync(join(tmpdir(), "sightline-traffic-browser-"));
const rangesFile = join(dir, "ranges.json");
writeFileSync(rangesFile, JSON.stringify({ GPTBot: ["192.0.2.0/25"], "OAI-SearchBot": ["192.0.2.128/25"] }));

/** The brand's robots.txt: everything allowed, but OAI-SearchBot kept out by line 5. */
const ROBOTS = ["User-agent: *", "Allow: /", "", "User-agent: OAI-SearchBot", "Disallow: /", ""].join("\n");

const GPTBOT = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)";
const SEARCHBOT = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.0";
const PERSON =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15";
/** What the log holds besides people's ordinary visits. */
const COUNTS = { verified: 300, errors: 20, spoofed: 40, searchbot: 60, chatgpt: 50, perplexity: 10, bad: 3 };
const CRAWLS = COUNTS.verified + COUNTS.spoofed + COUNTS.searchbot;
const VISITS = COUNTS.chatgpt + COUNTS.perplexity;
const PAGES = ["/", "/pricing", "/features", "/blog/best-crm-for-agencies"];

function clfTime(date: Date): string {
  const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${pad(date.getUTCDate())}/${months[date.getUTCMonth()]}/${date.getUTCFullYear()}:${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())} +0000`;
}

/**
 * An nginx "combined" log of about LOG_BYTES over the last five days: people's ordinary visits, and
 * spread among them GPTBot from its ranges (some served 404s) and from elsewhere, OAI-SearchBot,
 * visits from ChatGPT's and Perplexity's answers, and a few lines that are not log lines at all.
 */
function accessLog(): Buffer {
  const now = Date.now();
  const special: string[] = [];
  const line = (i: number, ip: string, path: string, status: number, referrer: string, agent: string) => {
    const at = new Date(now - (i % 5) * 86_400_000 - ((i * 7919) % 80_000) * 1000);
    return `${ip} - - [${clfTime(at)}] "GET ${path} HTTP/1.1" ${status} 5120 "${referrer}" "${agent}"`;
  };
  for (let i = 0; i < COUNTS.verified; i++) {
    const error = i < COUNTS.errors;
    special.push(
      line(i, `192.0.2.${i % 100}`, error ? "/old-pricing" : (PAGES[i % 4] ?? "/"), error ? 404 : 200, "-", GPTBOT),
    );
  }
  for (let i = 0; i < COUNTS.spoofed; i++) special.push(line(i, `198.51.100.${i % 200}`, "/pricing", 200, "-", GPTBOT));
  for (let i = 0; i < COUNTS.searchbot; i++)
    special.push(line(i, `192.0.2.${130 + (i % 100)}`, PAGES[i % 3] ?? "/", 200, "-", SEARCHBOT));
  for (let i = 0; i < COUNTS.chatgpt; i++)
    special.push(line(i, "203.0.113.77", i % 2 ? "/pricing" : "/features", 200, "https://chatgpt.com/", PERSON));
  for (let i = 0; i < COUNTS.perplexity; i++)
    special.push(
      line(i, "203.0.113.78", "/blog/best-crm-for-agencies", 200, "https://www.perplexity.ai/search", PERSON),
    );
  const lines = Array.from({ length: COUNTS.bad }, () => "this is not a log line at all");
  const ordinary = (i: number) =>
    line(i, `203.0.113.${i % 250}`, `/blog/post-${i % 500}?ref=newsletter`, 200, "https://www.google.com/", PERSON);
  let size = lines.join("\n").length;
  let next = 0;
  // One special line every so often, so that every batch holds some.
  const every = Math.floor(LOG_BYTES / 230 / special.length);
  for (let i = 0; size < LOG_BYTES; i++) {
    const text = i % every === 0 && next < special.length ? (special[next++] ?? "") : ordinary(i);
    lines.push(text);
    size += text.length + 1;
  }
  lines.push(...special.slice(next));
  return Buffer.from(`${lines.join("\n")}\n`);
}

/**
 * Painted marks of a chart: SVG shapes with an area that are not its grid or axes (as the brand
 * dashboard's test counts them). A chart that renders its frame but no data has none.
 */
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
 * Issue 26's Traffic page in a real Chromium against `sightline all`: a brand whose domain is a local
 * site with a robots.txt keeping OAI-SearchBot out. The empty page says how to get logs in; an 18 MB
 * access log uploaded through the file input goes in three batches with the progress bar moving, and
 * its totals show; the charts draw, the pages table lists the pages, the crawlers' verification
 * shows (GPTBot from its ranges and from elsewhere); the audit shows OAI-SearchBot blocked by its
 * line. The same file gzipped is recognised as already imported. An ingest token is created (shown
 * once), pushes a log, and once revoked is refused; GA4 is connected and disconnected. At 1280 and
 * 390 px, light and dark, axe clean, nothing asked of any address but 127.0.0.1. One dialect: the
 * storage is tested on both by the server's suites.
 */
describe("the Traffic page in a browser", () => {
  let browser: Browser;
  let installation: Installation;
  let site: Site;
  let session: Session;
  let workspaceId: string;
  let brandId: string;
  const contexts: BrowserContext[] = [];
  const log = accessLog();
  const logFile = join(dir, "access.log");
  writeFileSync(logFile, log);
  const gzFile = join(dir, "access.log.1.gz");
  writeFileSync(gzFile, gzipSync(log));

  const shot = (page: Page, name: string) => screenshot(page, `traffic-${name}`);
  const brandUrl = () => `${installation.base}/w/${workspaceId}/brands/${brandId}/traffic`;

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
      // Away from the charts, whose tooltip follows the pointer.
      await page.mouse.move(0, 0);
      // What sticks out, named, should the page be wider than the screen.
      if (Number(await page.evaluate("document.documentElement.scrollWidth")) > width) {
        console.log(
          `traffic ${name} at ${width} px is wider than the screen:`,
          await page.evaluate(`[...document.querySelectorAll("body *")]
            .filter((el) => el.getBoundingClientRect().right > ${width} + 1)
            .slice(-3)
            .map((el) => el.tagName + "." + String(el.className).slice(0, 60))`),
        );
      }
      await expectNoSidewaysScroll(page, width, `traffic ${name}`);
      await expectAccessible(page, `traffic ${name} at ${width} px`);
      await shot(page, `${name}-${width}`);
    }
    await page.setViewportSize({ width: first, height: 900 });
  }

  beforeAll(async () => {
    site = await new Site().start();
    site.pages.set("/robots.txt", { type: "text/plain", body: ROBOTS });
    [browser, installation] = await Promise.all([
      launchChromium(),
      // The API and the app without the worker: imports and pushes are counted in the request, and the
      // worker would sync a new GA4 connection at once (asking Google) and re-read the brand's sites.
      // Private addresses allowed, as in development: the GA4 key's token address is 127.0.0.1.
      startInstallation(
        "sqlite",
        { SIGHTLINE_BOT_RANGES_FILE: rangesFile, SIGHTLINE_WEBHOOK_ALLOW_PRIVATE: "true" },
        "serve",
      ),
    ]);
    ({ session, workspaceId } = await signUp(installation, OWNER, { workspace_name: "Northwind marketing" }));
    ({ id: brandId } = await appCall<{ id: string }>(
      installation,
      session,
      "POST",
      `/workspaces/${workspaceId}/v1/projects`,
      {
        name: "Northwind CRM",
        primary_domain: DOMAIN,
        prompts: ["best CRM for a small agency"],
        engines: ["chatgpt", "perplexity"],
      },
    ));
    // The audit reads https://northwind-crm.test/robots.txt. A brand's domain cannot be 127.0.0.1 and the
    // server process resolves names with the system's resolver, so the brand's sites are read here, by
    // the same service and fetcher rules (private addresses allowed, as SIGHTLINE_WEBHOOK_ALLOW_PRIVATE
    // allows them), with the local site standing for the domain: the check the server then answers from.
    const runtime = await createRuntime(
      { database: installation.database, secretKeys: [TEST_SECRET_KEY], webhookAllowPrivate: true },
      createLogger("silent"),
      { migrate: false },
    );
    try {
      const real = new HttpPageFetcher({ allowPrivate: true, resolver: { resolve: async () => ["127.0.0.1"] } });
      const fetcher: PageFetcher = {
        get(url, deadline) {
          const asked = new URL(url);
          if (asked.hostname !== DOMAIN) return Promise.resolve({ ok: false, url, reason: "no such domain was found" });
          return real
            .get(new URL(`${asked.pathname}${asked.search}`, site.url).toString(), deadline)
            .then((result) => ({ ...result, url: result.url.replace(site.url, asked.origin) }));
        },
      };
      await checkAccess(await workspaceContext(runtime.deps, workspaceId), brandId, { fetcher });
    } finally {
      await runtime.close();
    }
    expect(site.asked).toContain("/robots.txt");
  }, 120_000);

  afterEach(async () => {
    for (const context of contexts.splice(0)) await context.close();
  });

  afterAll(async () => {
    await browser?.close();
    await installation?.stop();
    await site?.stop();
    rmSync(dir, { recursive: true, force: true });
    console.log(`screenshots in ${SCREENSHOTS}`);
  });

  it("says how to get logs in, uploads a large log with progress, then shows the charts, the pages and the audit", async () => {
    const { page, problems } = await open(1280);
    await page.goto(brandUrl());
    await page.getByRole("link", { name: "Traffic" }).waitFor();
    expect(await page.getByRole("link", { name: "Traffic" }).getAttribute("class")).toContain("bg-accent");

    // Before any log: what the page is for, and the ways in first.
    await page.getByText("No logs yet").waitFor();
    const upload = page.getByRole("region", { name: "Upload log files", exact: true });
    await upload.waitFor();
    const audit = page.getByRole("region", { name: "Can AI crawlers read the site?", exact: true });
    const searchBot = audit.getByRole("row").filter({ hasText: "OAI-SearchBot" });
    await searchBot.getByText("Blocked", { exact: true }).waitFor();
    await searchBot.getByText("Disallow: /", { exact: true }).waitFor();
    await searchBot.getByText("line 5, in the rules for OAI-SearchBot", { exact: true }).waitFor();
    await audit.getByText("OAI-SearchBot is kept out of the whole site").waitFor();
    expect(
      await audit.getByRole("row").filter({ hasText: "GPTBot" }).getByText("Allowed", { exact: true }).count(),
    ).toBe(1);
    await page.getByText("What the words on this page mean").click();
    await page.getByText("The request came from an address the crawler's operator publishes").waitFor();
    await fits(page, "empty");

    // An 18 MB log through the file input, its upload slowed to a few MB a second to watch the bar move.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 20,
      downloadThroughput: -1,
      uploadThroughput: 6 * 1024 * 1024,
    });
    await page.evaluate(`(() => {
      window.__progress = [];
      new MutationObserver(() => {
        const bar = document.querySelector('[role="progressbar"][aria-label="Upload progress"]');
        if (bar) window.__progress.push(Number(bar.getAttribute("aria-valuenow")));
      }).observe(document.body, { subtree: true, childList: true, attributes: true });
    })()`);
    await upload.getByLabel("Upload log files").setInputFiles(logFile);
    const bar = page.getByRole("progressbar", { name: "Upload progress" });
    await bar.waitFor();
    await expect
      .poll(async () => Number(await bar.getAttribute("aria-valuenow")), { timeout: 20_000 })
      .toBeGreaterThan(20);
    expect(await bar.getAttribute("aria-valuetext")).toMatch(/MB of 18\.9 MB sent/);
    await shot(page, "uploading-1280");
    const outcome = page.getByRole("region", { name: "Upload of access.log", exact: true });
    await outcome.getByText(/lines read/).waitFor({ timeout: 60_000 });
    await bar.waitFor({ state: "detached", timeout: 60_000 });
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    const seen = (await page.evaluate("window.__progress")) as number[];
    const moving = [...new Set(seen.filter((v) => v > 0 && v < 100))];
    expect(moving.length, `progress values seen: ${moving.join(", ")}`).toBeGreaterThan(3);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(await outcome.textContent()).toContain(`${CRAWLS} AI crawls`);
    expect(await outcome.textContent()).toContain(`${VISITS} AI-referred visits`);
    expect(await outcome.textContent()).toContain(`${COUNTS.bad} not readable`);
    await outcome.getByText(/nginx or Apache \(combined\)/).waitFor();
    await outcome.getByRole("listitem").first().waitFor();

    // The figures, where the upload's outcome leads.
    await outcome.locator("..").getByRole("button", { name: "Show the figures" }).click();
    await expect.poll(() => page.evaluate("document.activeElement?.id")).toBe("traffic-figures");
    // The figures: totals, both charts drawn, the crawlers with their verification, the pages, the audit's served statuses.
    const totals = page.locator("dl").filter({ hasText: "AI crawls" }).first();
    await totals.getByText(String(CRAWLS), { exact: true }).waitFor();
    await totals.getByText(String(VISITS), { exact: true }).waitFor();
    await totals
      .getByText(`${COUNTS.verified + COUNTS.searchbot} verified (90%) · 0 unverifiable · ${COUNTS.spoofed} spoofed`)
      .waitFor();
    const crawlsChart = page.getByRole("region", { name: "AI crawls per day", exact: true });
    const visitsChart = page.getByRole("region", { name: "AI-referred visits per day", exact: true });
    await expect.poll(() => chartMarks(crawlsChart), { timeout: 15_000 }).toBeGreaterThanOrEqual(5);
    await expect.poll(() => chartMarks(visitsChart), { timeout: 15_000 }).toBeGreaterThanOrEqual(5);
    await visitsChart.getByText("ChatGPT", { exact: true }).waitFor();
    await crawlsChart.getByLabel("Split by").click();
    await page.getByRole("option", { name: "Crawler" }).click();
    await crawlsChart.getByText("OAI-SearchBot", { exact: true }).waitFor();
    await expect.poll(() => chartMarks(crawlsChart), { timeout: 15_000 }).toBeGreaterThanOrEqual(5);
    const crawlers = page.getByRole("region", { name: "AI crawlers", exact: true });
    const gptbot = crawlers.getByRole("row").filter({ hasText: "GPTBot" }).filter({ hasText: "OpenAI" }).first();
    await gptbot.getByText(String(COUNTS.verified + COUNTS.spoofed), { exact: true }).waitFor();
    await gptbot.getByText(String(COUNTS.spoofed), { exact: true }).waitFor();
    const pages = page.getByRole("region", { name: "Pages: crawled, cited, visited", exact: true });
    for (const path of [...PAGES, "/old-pricing"])
      await pages.getByRole("link", { name: new RegExp(`^${path} `) }).waitFor();
    await pages.getByText(`1–5 of 5 pages`).waitFor();
    await pages
      .getByRole("row")
      .filter({ hasText: "/old-pricing" })
      .getByText(/20 errors served/)
      .waitFor();
    await pages.getByText("Crawled, not cited").first().waitFor();
    const served = audit.getByRole("row").filter({ hasText: "GPTBot" });
    await served.getByText(`${COUNTS.verified} crawls`).filter({ visible: true }).waitFor();
    await served.getByText(`${COUNTS.errors} errors`).filter({ visible: true }).waitFor();
    await served
      .getByText(`${COUNTS.verified - COUNTS.errors} OK (200) · ${COUNTS.errors} not found (404)`)
      .filter({ visible: true })
      .waitFor();
    await fits(page, "with-data");

    // The same lines gzipped, as a rotated log: decompressed in the browser, cut alike, recognised.
    await upload.getByLabel("Upload log files").setInputFiles(gzFile);
    const again = page.getByRole("region", { name: "Upload of access.log.1.gz", exact: true });
    await again.getByText(/^Already imported/).waitFor({ timeout: 60_000 });
    await bar.waitFor({ state: "detached" });
    await totals.getByText(String(CRAWLS), { exact: true }).waitFor();
    await upload.scrollIntoViewIfNeeded();
    await shot(page, "already-imported-1280");

    // Dark mode, as the rest of the app.
    await page.emulateMedia({ colorScheme: "dark" });
    await expect.poll(() => page.evaluate("document.documentElement.classList.contains('dark')")).toBe(true);
    await fits(page, "dark");
    expect(problems).toEqual([]);
  }, 240_000);

  it("makes an ingest token shown once, which pushes logs until it is revoked", async () => {
    const { page, problems } = await open(1280);
    await page.goto(brandUrl());
    const drains = page.getByRole("region", { name: "Send logs automatically (log drains)", exact: true });
    await drains.getByRole("button", { name: "Create ingest token" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Name").fill("Cloudflare Logpush");
    await dialog.getByRole("button", { name: "Create token" }).click();
    const tokenField = dialog.getByLabel("Ingest token", { exact: true });
    await tokenField.waitFor();
    const token = await tokenField.inputValue();
    expect(token).toMatch(/^sl_ingest_[0-9A-Za-z]{32}$/);
    installation.secrets.push(token);
    await expectAccessible(page, "the new ingest token");
    await shot(page, "token-created-1280");
    await dialog.getByRole("button", { name: "I have copied the token" }).click();
    const row = drains.getByRole("row").filter({ hasText: "Cloudflare Logpush" });
    await row.getByText("Active", { exact: true }).filter({ visible: true }).waitFor();
    // The address the page gives, with the token, as a drain sends it.
    const address = await drains.getByLabel("Address to send logs to", { exact: true }).inputValue();
    expect(address).toBe(`${installation.base}/v1/projects/${brandId}/traffic/logs`);
    const push = () =>
      fetch(`${address}?format=combined`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "text/plain" },
        body: `192.0.2.9 - - [${clfTime(new Date())}] "GET /pricing HTTP/1.1" 200 512 "-" "${GPTBOT}"\n`,
      });
    const pushed = await push();
    expect(pushed.status, await pushed.clone().text()).toBe(200);
    expect(await pushed.json()).toMatchObject({ object: "traffic_import", bot_hits: 1, duplicate: false });
    await page.setViewportSize({ width: 390, height: 900 });
    await drains.scrollIntoViewIfNeeded();
    await expectNoSidewaysScroll(page, 390, "log drains");
    await expectAccessible(page, "log drains at 390 px");
    await drains.screenshot({ path: join(SCREENSHOTS, "traffic-log-drains-390.png") });
    await page.setViewportSize({ width: 1280, height: 900 });

    await drains.getByRole("button", { name: "Revoke Cloudflare Logpush" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Revoke token" }).click();
    await row.getByText("Revoked", { exact: true }).filter({ visible: true }).waitFor();
    const refused = await push();
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("INVALID_API_KEY");
    await drains.screenshot({ path: join(SCREENSHOTS, "traffic-log-drains-1280.png") });
    expect(problems).toEqual([]);
  }, 90_000);

  it("connects GA4 with a pasted key, and disconnects it, without asking Google anything", async () => {
    const { page, problems } = await open(390);
    await page.goto(brandUrl());
    const ga4 = page.getByRole("region", { name: "Google Analytics 4", exact: true });
    await ga4.getByLabel("GA4 property ID").fill("properties/x");
    await ga4.getByRole("button", { name: "Connect GA4" }).click();
    await ga4.getByText("Enter the property's number, e.g. 123456789.").waitFor();
    await ga4.getByText("This is not the JSON key file: paste the whole file, from { to }.").waitFor();
    await expectAccessible(page, "GA4 form with errors at 390 px");
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const key = {
      type: "service_account",
      client_email: "sightline-reader@northwind.iam.gserviceaccount.com",
      private_key: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
      // Checked when connecting (its host must resolve): an address, so that no name is looked up. Nothing
      // is asked of it: without a worker, nothing syncs.
      token_uri: "http://127.0.0.1:9/token",
    };
    installation.secrets.push(key.private_key);
    await ga4.getByLabel("GA4 property ID").fill("123456789");
    await ga4.getByLabel("Service account key (JSON)").fill(JSON.stringify(key));
    await ga4.getByRole("button", { name: "Connect GA4" }).click();
    await ga4.getByText(key.client_email).waitFor();
    await ga4.getByText("Not yet").waitFor();
    await ga4.getByRole("button", { name: "Sync now" }).waitFor();
    await ga4.scrollIntoViewIfNeeded();
    await expectNoSidewaysScroll(page, 390, "GA4 connected");
    await expectAccessible(page, "GA4 connected at 390 px");
    await ga4.screenshot({ path: join(SCREENSHOTS, "traffic-ga4-390.png") });
    // The toast that says it connected sits over the buttons at this width until it goes (not while hovered).
    await page.mouse.move(0, 0);
    await page.getByText(/^GA4 is connected/).waitFor({ state: "hidden", timeout: 15_000 });
    await ga4.getByRole("button", { name: "Disconnect" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Disconnect" }).click();
    await ga4.getByLabel("GA4 property ID").waitFor();
    expect(problems).toEqual([]);
  }, 90_000);
});
