import { Readable } from "node:stream";
import { afterAll, beforeAll, expect, it } from "vitest";
import { ChatCompletionsAdapter } from "../../src/services/engines/adapters/chat-completions.ts";
import { checkAccess } from "../../src/services/traffic/access.ts";
import { importTrafficLogs } from "../../src/services/traffic/import.ts";
import type { PageFetcher } from "../../src/services/websites/fetcher.ts";
import { HttpPageFetcher } from "../../src/services/websites/fetcher.ts";
import { workspaceContext } from "../../src/services/workspaces/workspaces.ts";
import { type FakeChatCompletions, startFakeChatCompletions } from "../helpers/fake-vendors/index.ts";
import { describeEachDialect, type Harness } from "../helpers/harness.ts";
import { Site } from "../helpers/website.ts";

const DAY_MS = 86_400_000;

/** `n` combined-format lines on the day `daysAgo` before the harness's clock. */
function lines(h: Harness, daysAgo: number, n: number, make: (at: string, i: number) => string): string[] {
  const day = new Date(Math.floor(h.clock.now().getTime() / DAY_MS) * DAY_MS - daysAgo * DAY_MS + 3_600_000);
  const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
  const at = `${String(day.getUTCDate()).padStart(2, "0")}/${months[day.getUTCMonth()]}/${day.getUTCFullYear()}:01:00:00 +0000`;
  return Array.from({ length: n }, (_, i) => make(at, i));
}

const crawl = (at: string, i: number) =>
  `198.51.100.${i % 200} - - [${at}] "GET /page-${i} HTTP/1.1" 200 100 "-" "Mozilla/5.0; compatible; GPTBot/1.2"`;
const visit = (at: string, i: number) =>
  `203.0.113.${i % 200} - - [${at}] "GET /guide-${i} HTTP/1.1" 200 100 "https://chatgpt.com/" "Mozilla/5.0 Firefox/120.0"`;

describeEachDialect("alert rules on the brand's traffic (issue 26)", (h) => {
  let vendor: FakeChatCompletions;
  let site: Site;
  beforeAll(async () => {
    // ChatGPT, answered by a local server speaking its wire format: the bots that feed it count.
    vendor = await startFakeChatCompletions({ flavour: "plain" });
    vendor.setAnswer({ text: "Acme CRM is a fine choice.", citations: [] });
    h.deps.engines.use(
      new ChatCompletionsAdapter(
        { name: "chatgpt", apiKey: "test-key", baseUrl: vendor.url, model: "gpt-test" },
        5_000,
      ),
      8,
    );
    site = await new Site().start();
  });
  afterAll(async () => {
    await vendor.stop();
    await site.stop();
  });

  it("fires on a fall of crawls, not on steady referrals, and on robots.txt blocking a bot that feeds a tracked engine", async () => {
    const worker = await h.startWorker();
    const t = await h.tenant("agency");
    const project = (
      await h.call("createProject", {
        key: t.key,
        body: { name: "Acme CRM", primary_domain: "acmecrm.example", prompts: ["best CRM?"], engines: ["chatgpt"] },
      })
    ).json();
    const ctx = await workspaceContext(h.deps, t.workspace.id);
    // 40 crawls a week ago, 8 this week (−80%); 25 AI-referred visits in each week (steady).
    const log = [
      ...lines(h, 10, 40, crawl),
      ...lines(h, 3, 8, crawl),
      ...lines(h, 10, 25, visit),
      ...lines(h, 3, 25, visit),
    ].join("\n");
    const counted = await importTrafficLogs(ctx, project.id, { body: Readable.from([log]), source: "api" });
    expect(counted).toMatchObject({ bot_hits: 48, referrals: 50 });
    // robots.txt blocks OAI-SearchBot (ChatGPT's search crawler) on line 3.
    site.pages.set("/robots.txt", {
      type: "text/plain",
      body: "User-agent: *\nAllow: /\nUser-agent: OAI-SearchBot\nDisallow: /\n",
    });
    const real = new HttpPageFetcher({ allowPrivate: true, resolver: { resolve: async () => ["127.0.0.1"] } });
    const fetcher: PageFetcher = {
      get: (url, deadline) => {
        const asked = new URL(url);
        return real.get(new URL(`${asked.pathname}${asked.search}`, site.url).toString(), deadline);
      },
    };
    await checkAccess(ctx, project.id, { fetcher });

    const rules = [
      { type: "crawls_drop", threshold: 50 },
      { type: "referrals_drop", threshold: 50 },
      { type: "crawler_blocked" },
    ];
    const schedule = await h.call("createMonitoring", {
      key: t.key,
      body: { project_id: project.id, schedule: { every: "day" }, alert_rules: rules },
    });
    expect(schedule.statusCode, schedule.body).toBe(201);
    await h.call("runMonitoring", { key: t.key, params: { id: schedule.json().id } });
    const alerts = async () => {
      for (let i = 0; i < 200; i++) {
        const runs = (await h.call("listMonitoringRuns", { key: t.key, params: { id: schedule.json().id } })).json();
        if (runs.data.some((r: { status: string }) => r.status === "completed")) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return (await h.call("listAlerts", { key: t.key, query: { schedule_id: schedule.json().id } })).json().data as {
        rule: { type: string };
        message: string;
        observed: number;
        previous: number;
      }[];
    };
    const fired = await alerts();
    expect(fired.map((a) => a.rule.type).sort()).toEqual(["crawler_blocked", "crawls_drop"]);
    const drop = fired.find((a) => a.rule.type === "crawls_drop");
    expect(drop).toMatchObject({ observed: 8, previous: 40 });
    expect(drop?.message).toBe(
      "AI crawls fall by 50% or more: 8 crawls in the last 7 days against 40 crawls the 7 before (−80%).",
    );
    expect(fired.find((a) => a.rule.type === "crawler_blocked")?.message).toBe(
      "robots.txt blocks an AI crawler: OAI-SearchBot on acmecrm.example (robots.txt line 4).",
    );
    await worker.stop(1_000);
  });

  it("refuses traffic rules with engines or without their threshold", async () => {
    const t = await h.tenant("agency");
    const project = (
      await h.call("createProject", {
        key: t.key,
        body: { name: "Acme", primary_domain: "acme.example", prompts: ["p"] },
      })
    ).json();
    for (const [rule, field] of [
      [{ type: "crawls_drop" }, "alert_rules[0].threshold"],
      [{ type: "referrals_drop", threshold: 0 }, "alert_rules[0].threshold"],
      [{ type: "crawler_blocked", engines: ["chatgpt"] }, "alert_rules[0].engines"],
      [{ type: "crawler_blocked", threshold: 5 }, "alert_rules[0].threshold"],
    ] as const) {
      const res = await h.call("createMonitoring", {
        key: t.key,
        body: { project_id: project.id, schedule: { every: "day" }, alert_rules: [rule] },
      });
      expect(res.statusCode, JSON.stringify(rule)).toBe(400);
      expect(res.json().error.details.map((d: { field: string }) => d.field)).toContain(field);
    }
  });
});
