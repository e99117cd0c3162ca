import { mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import type { RunningWorker } from "../../src/app/worker.ts";
import { useHarness } from "../helpers/harness.ts";

// CHROMIUM_PATH, /usr/bin/chromium or the npm-shipped build, as the global setup found it (helpers/chromium.ts).
const CHROMIUM = inject("chromium");
const h = useHarness("sqlite");
let worker: RunningWorker;

beforeAll(async () => {
  worker = await h.startWorker(undefined, { pollIntervalMs: 20 });
});
afterAll(async () => worker.stop(1_000));

async function settle(workspaceId: string) {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const busy = await h.deps.db
      .selectFrom("analyses")
      .select("id")
      .where("workspace_id", "=", workspaceId)
      .where("status", "in", ["queued", "running"])
      .execute();
    if (busy.length === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error("analyses did not finish");
}

it("renders a monitoring report's HTML in Chromium, charts included, without console errors", async () => {
  const t = await h.tenant("agency");
  const project = (
    await h.call("createProject", {
      key: t.key,
      body: {
        name: "Acme CRM",
        aliases: ["Acme"],
        primary_domain: "acmecrm.com",
        competitors: [
          { name: "HubSpot", domains: ["hubspot.com"] },
          { name: "Salesforce", domains: ["salesforce.com"] },
          { name: "Pipedrive" },
        ],
        prompts: ["best CRM for a small agency", "CRM with a good Slack integration", "cheapest CRM for startups"],
      },
    })
  ).json();
  const schedule = (
    await h.call("createMonitoring", {
      key: t.key,
      body: { project_id: project.id, samples: 3, schedule: { every: "day" } },
    })
  ).json();
  for (let day = 0; day < 6; day++) {
    await h.call("runMonitoring", { key: t.key, params: { id: schedule.id } });
    await settle(t.workspace.id);
    h.clock.advance(86_400_000);
  }
  const reports = (
    await h.call("listReports", { key: t.key, query: { project_id: project.id, type: "monitoring_run" } })
  ).json().data;
  expect(reports).toHaveLength(6);
  const html = (await h.call("getReport", { key: t.key, params: { id: reports[0].id }, query: { format: "html" } }))
    .body;

  if ("missing" in CHROMIUM) throw new Error(CHROMIUM.missing);
  const browser = await chromium.launch({
    executablePath: CHROMIUM.executablePath,
    env: { ...process.env, ...CHROMIUM.env },
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    const problems: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error" || message.type() === "warning")
        problems.push(`${message.type()}: ${message.text()}`);
    });
    page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
    page.on("request", (request) => {
      if (!request.url().startsWith("data:") && request.url() !== "about:blank")
        problems.push(`external request: ${request.url()}`);
    });
    await page.setContent(html, { waitUntil: "load" });
    // Over time, share of voice, positions, top cited domains and cited sites by kind.
    expect(await page.locator("svg.chart").count()).toBe(5);
    expect(
      await page.locator('svg[aria-label="Cited sites by kind (answers citing each kind)"] rect.bar').count(),
    ).toBeGreaterThan(0);
    // Six points per line in the visibility chart, and visible bars elsewhere.
    const lines = page.locator("svg.line-chart path");
    expect(await lines.count()).toBeGreaterThanOrEqual(2);
    const circles = await page.locator("svg.line-chart circle").count();
    expect(circles).toBeGreaterThanOrEqual(6);
    const bars = await page
      .locator("svg.bar-chart rect.bar")
      .evaluateAll((rects) => rects.map((r) => (r as unknown as { getBBox(): { width: number } }).getBBox().width));
    expect(bars.filter((width) => width > 0).length).toBeGreaterThan(0);
    const box = await page.locator("svg.line-chart").boundingBox();
    expect(box?.width ?? 0).toBeGreaterThan(300);
    const dir = join(tmpdir(), "sightline-report-screenshots");
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `${reports[0].id}.png`);
    const png = await page.screenshot({ path: file, fullPage: true });
    expect(png.length).toBeGreaterThan(10_000);
    console.log(`report screenshot: ${file}`);
    // On a phone the page fits its width: only the wide tables scroll, inside their own boxes.
    const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await phone.setContent(html, { waitUntil: "load" });
    expect(
      await phone.locator("html").evaluate((root) => (root as unknown as { scrollWidth: number }).scrollWidth),
    ).toBeLessThanOrEqual(390);
    const small = join(dir, `${reports[0].id}-390.png`);
    await phone.screenshot({ path: small, fullPage: true });
    console.log(`report screenshot at 390 px: ${small}`);
    expect(problems).toEqual([]);
  } finally {
    await browser.close();
  }
}, 60_000);
