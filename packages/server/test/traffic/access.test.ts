import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { jobColumns } from "../../src/services/jobs/columns.ts";
import type { AnswerRow } from "../../src/services/opportunities/compute.ts";
import { crawlerOpportunities } from "../../src/services/opportunities/crawlers.ts";
import { createProject } from "../../src/services/projects/projects.ts";
import { checkAccess, getAccess, type TrafficAccess } from "../../src/services/traffic/access.ts";
import { checkDomain } from "../../src/services/traffic/access-check.ts";
import { ACCESS_CHECK_JOB, checkAccessHandler, queueAccessChecks } from "../../src/services/traffic/access-recheck.ts";
import { BOTS, type Bot } from "../../src/services/traffic/bots.ts";
import { importTrafficLogs } from "../../src/services/traffic/import.ts";
import { HttpPageFetcher, type PageFetcher } from "../../src/services/websites/fetcher.ts";
import { workspaceContext } from "../../src/services/workspaces/workspaces.ts";
import { describeEachDialect, type Harness } from "../helpers/harness.ts";
import { Site } from "../helpers/website.ts";

// Ranges of this test's own: OAI-SearchBot is verified from 192.0.2.128/25 and spoofed elsewhere.
const dir = mkdtempSync(join(tmpdir(), "sightline-access-"));
const rangesFile = join(dir, "ranges.json");
writeFileSync(rangesFile, JSON.stringify({ "OAI-SearchBot": ["192.0.2.128/25"] }));

/** The brand's robots.txt: OAI-SearchBot blocked on line 7, GPTBot allowed, PerplexityBot kept out of /private/. */
const ROBOTS = [
  "# Acme's rules for crawlers",
  "User-agent: GPTBot",
  "Allow: /",
  "",
  "# Search bots: not yet",
  "User-agent: OAI-SearchBot",
  "Disallow: /",
  "",
  "User-agent: PerplexityBot",
  "Disallow: /private/",
  "",
  "User-agent: *",
  "Disallow: /admin",
  "",
].join("\n");

/** Local sites for the brand's domains: the only fake stands for the internet, never for the rules. */
async function brandSites() {
  const site = await new Site().start();
  site.pages.set("/robots.txt", { type: "text/plain", body: ROBOTS });
  site.pages.set("/llms.txt", { type: "text/plain", body: "# Acme\n> Project tools for agencies.\n" });
  // No robots.txt and no llms.txt: both answer 404.
  const shop = await new Site().start();
  const down = await new Site().start();
  down.pages.set("/robots.txt", { status: 503, type: "text/plain", body: "maintenance" });
  const sites = new Map([
    ["acme.test", site],
    ["shop.acme-store.test", shop],
    ["acme-down.test", down],
  ]);
  // Each domain is its local site; the fetcher's rules hold (private addresses allowed, as
  // SIGHTLINE_WEBHOOK_ALLOW_PRIVATE allows them), and any other domain is not found.
  const real = new HttpPageFetcher({ allowPrivate: true, resolver: { resolve: async () => ["127.0.0.1"] } });
  const fetcher: PageFetcher = {
    get(url, deadline) {
      const asked = new URL(url);
      const local = sites.get(asked.hostname);
      if (local === undefined) return Promise.resolve({ ok: false, url, reason: "no such domain was found" });
      // Answered under the address asked for, as the site would be.
      return real
        .get(new URL(`${asked.pathname}${asked.search}`, local.url).toString(), deadline)
        .then((result) => ({ ...result, url: result.url.replace(local.url, asked.origin) }));
    },
  };
  return {
    site,
    shop,
    down,
    fetcher,
    stop: () => Promise.all([site.stop(), shop.stop(), down.stop()]),
  };
}

async function brand(h: Harness, engines = ["chatgpt", "perplexity", "claude"]) {
  const t = await h.tenant("agency");
  const ctx = await workspaceContext(h.deps, t.workspace.id);
  const project = await createProject(ctx, {
    name: "Acme",
    primary_domain: "acme.test",
    other_domains: ["shop.acme-store.test", "acme-down.test"],
    engines,
  });
  return { t, ctx, id: project.id };
}

const botOf = (access: TrafficAccess, domain: string, bot: string) =>
  access.domains.find((d) => d.domain === domain)?.bots.find((b) => b.bot === bot);

interface Opportunity {
  kind: string;
  title: string;
  explanation: string;
  impact: number;
  answers: number;
  engines: string[];
  domain: string | null;
  evidence: string[];
  crawler: {
    bot: string;
    operator: string;
    robots: {
      url: string | null;
      status: number | null;
      line: number | null;
      rule: string | null;
      user_agent: string | null;
    } | null;
    served: {
      since: string;
      hits: number;
      errors: number;
      pages: { path: string; status: number; hits: number }[];
    } | null;
  } | null;
}

describeEachDialect(
  "the access audit (issue 26)",
  (h) => {
    const opportunities = async (key: string, id: string, kind: string) => {
      const res = await h.call("listOpportunities", { key, params: { id }, query: { kind, limit: 100 } });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { data: Opportunity[] }).data;
    };

    it("reads each domain's robots.txt per bot, with the line that decides, and llms.txt; checked once, then read", async () => {
      const sites = await brandSites();
      try {
        const { ctx, id } = await brand(h);
        const access = await getAccess(ctx, id, { fetcher: sites.fetcher });
        expect(access.domains.map((d) => d.domain)).toEqual(["acme.test", "shop.acme-store.test", "acme-down.test"]);
        expect(access.checked_at).toBe(h.clock.now().toISOString());

        const acme = access.domains[0];
        expect(acme).toMatchObject({
          error: null,
          robots_txt: { status: 200, found: true },
          llms_txt: { present: true, status: 200 },
        });
        expect(botOf(access, "acme.test", "OAI-SearchBot")).toMatchObject({
          verdict: "blocked",
          group: "OAI-SearchBot",
          rule: { line: 7, text: "Disallow: /" },
          reason: "Disallow: / (line 7) in the group for OAI-SearchBot blocks every page",
          operator: "OpenAI",
          purpose: "search",
          engines: ["chatgpt", "chatgpt_web"],
          tracked: true,
          recent: { hits: 0, errors: 0, statuses: [], last_at: null },
        });
        expect(botOf(access, "acme.test", "GPTBot")).toMatchObject({
          verdict: "allowed",
          group: "GPTBot",
          rule: { line: 3, text: "Allow: /" },
        });
        expect(botOf(access, "acme.test", "PerplexityBot")).toMatchObject({
          verdict: "partial",
          group: "PerplexityBot",
          rule: { line: 10, text: "Disallow: /private/" },
        });
        // A bot without its own group follows `*`; a bot feeding no tracked engine is not tracked.
        expect(botOf(access, "acme.test", "Bytespider")).toMatchObject({
          verdict: "partial",
          group: "*",
          rule: { line: 13 },
          tracked: false,
        });

        // No robots.txt (404): everything allowed, RFC 9309 §2.3.1.3; no llms.txt either.
        const shop = access.domains[1];
        expect(shop).toMatchObject({
          error: null,
          robots_txt: { status: 404, found: false },
          llms_txt: { present: false, status: 404 },
        });
        for (const bot of shop?.bots ?? []) {
          expect(bot).toMatchObject({ verdict: "allowed", group: null, rule: null });
          expect(bot.reason).toContain("answered 404");
        }
        // A 5xx: everything disallowed, RFC 9309 §2.3.1.4; llms.txt is not asked for either.
        const down = access.domains[2];
        expect(down).toMatchObject({
          robots_txt: { status: 503, found: false },
          llms_txt: { present: false, status: null },
        });
        for (const bot of down?.bots ?? []) {
          expect(bot).toMatchObject({ verdict: "blocked", rule: null });
          expect(bot.reason).toContain("RFC 9309");
        }
        expect(sites.site.asked).toEqual(["/robots.txt", "/llms.txt"]);
        expect(sites.down.asked).toEqual(["/robots.txt"]);

        // Stored: the next read asks no site.
        const again = await getAccess(ctx, id, { fetcher: sites.fetcher });
        expect(again).toEqual(access);
        expect(sites.site.asked).toHaveLength(2);
      } finally {
        await sites.stop();
      }
    });

    it("turns the block of a bot that feeds a tracked engine into an opportunity with its line; GET /v1/projects/:id/access shows the audit", async () => {
      const sites = await brandSites();
      try {
        const { t, ctx, id } = await brand(h);
        await checkAccess(ctx, id, { fetcher: sites.fetcher });
        const blocked = await opportunities(t.key, id, "crawler_blocked");

        const search = blocked.find((o) => o.domain === "acme.test" && o.crawler?.bot === "OAI-SearchBot");
        expect(search).toMatchObject({
          kind: "crawler_blocked",
          title: "OAI-SearchBot is blocked by acme.test/robots.txt line 7: ChatGPT cannot cite your pages",
          engines: ["chatgpt"],
          answers: 0,
          evidence: [],
          crawler: {
            bot: "OAI-SearchBot",
            operator: "OpenAI",
            robots: {
              url: "https://acme.test/robots.txt",
              status: 200,
              line: 7,
              rule: "Disallow: /",
              user_agent: "OAI-SearchBot",
            },
            served: null,
          },
        });
        expect(search?.explanation).toContain(
          'Line 7 of https://acme.test/robots.txt, "Disallow: /" in the group for OAI-SearchBot',
        );
        expect(search?.explanation).toContain("It feeds ChatGPT, which the brand tracks.");
        // Allowed and partly blocked bots are no opportunity, nor is anything on the domain without robots.txt.
        expect(blocked.filter((o) => o.domain === "acme.test").map((o) => o.crawler?.bot)).toEqual(["OAI-SearchBot"]);
        expect(blocked.filter((o) => o.domain === "shop.acme-store.test")).toEqual([]);
        // The 5xx blocks every bot: those feeding ChatGPT, Perplexity and Claude are opportunities,
        // those feeding Gemini (not tracked) or no engine are not.
        const fed = BOTS.filter((b) => b.engines.some((e) => ["chatgpt", "perplexity", "claude"].includes(e)));
        const onDown = blocked.filter((o) => o.domain === "acme-down.test");
        expect(onDown.map((o) => o.crawler?.bot).sort()).toEqual(fed.map((b) => b.name).sort());
        expect(onDown.find((o) => o.crawler?.bot === "PerplexityBot")).toMatchObject({
          title:
            "PerplexityBot is blocked on acme-down.test: its robots.txt answers 503, so Perplexity cannot cite your pages",
          crawler: { robots: { status: 503, line: null, rule: null, user_agent: null } },
        });
        // A training crawler's block says what it costs, and what it does not.
        expect(onDown.find((o) => o.crawler?.bot === "GPTBot")?.explanation).toContain(
          "OAI-SearchBot and ChatGPT-User read pages for answers",
        );

        // The route reads the stored audit, checked by the bots' rules above.
        const res = await h.call("getProjectAccess", { key: t.key, params: { id } });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json()).toEqual(await getAccess(ctx, id));
        expect(botOf(res.json(), "acme.test", "OAI-SearchBot")?.rule).toEqual({ line: 7, text: "Disallow: /" });
        const other = await h.tenant("agency");
        expect((await h.call("getProjectAccess", { key: other.key, params: { id } })).statusCode).toBe(404);

        // A brand tracking none of the engines these bots feed has no crawler opportunity.
        const sandboxOnly = await brand(h, ["sandbox"]);
        await checkAccess(sandboxOnly.ctx, sandboxOnly.id, { fetcher: sites.fetcher });
        expect(await opportunities(sandboxOnly.t.key, sandboxOnly.id, "crawler_blocked")).toEqual([]);
      } finally {
        await sites.stop();
      }
    });

    it("lists the statuses each bot was served lately, and bots served errors as opportunities", async () => {
      const sites = await brandSites();
      try {
        const { t, ctx, id } = await brand(h);
        await checkAccess(ctx, id, { fetcher: sites.fetcher });
        expect(await opportunities(t.key, id, "crawler_errors")).toEqual([]);
        const line = (ip: string, time: string, path: string, status: number, agent: string) =>
          `${ip} - - [${time}] "GET ${path} HTTP/1.1" ${status} 100 "-" "${agent}"`;
        const log = [
          // Claude-SearchBot (unverifiable: Anthropic publishes no ranges) gets 404s and a 503.
          ...Array.from({ length: 4 }, (_, i) =>
            line("198.51.100.7", `20/Nov/2026:0${i}:00:00 +0000`, "/old-pricing", 404, "Claude-SearchBot/1.0"),
          ),
          line("198.51.100.7", "20/Nov/2026:05:00:00 +0000", "/docs", 503, "Claude-SearchBot/1.0"),
          line("198.51.100.7", "20/Nov/2026:06:00:00 +0000", "/", 200, "Claude-SearchBot/1.0"),
          line("198.51.100.7", "20/Nov/2026:07:00:00 +0000", "/", 200, "Claude-SearchBot/1.0"),
          // OAI-SearchBot: 200s from its own addresses; a firewall's 403s to impostors are no error of the site.
          line("192.0.2.140", "20/Nov/2026:08:00:00 +0000", "/pricing", 200, "OAI-SearchBot/1.0"),
          ...Array.from({ length: 5 }, (_, i) =>
            line("203.0.113.9", `20/Nov/2026:09:0${i}:00 +0000`, "/pricing", 403, "OAI-SearchBot/1.0"),
          ),
          // Long ago: outside the last 7 days.
          line("198.51.100.7", "01/Nov/2026:08:00:00 +0000", "/gone", 404, "Claude-SearchBot/1.0"),
        ].join("\n");
        await importTrafficLogs(ctx, id, { body: Readable.from([`${log}\n`]), source: "api" });

        const access = await getAccess(ctx, id);
        expect(access.recent_from).toBe("2026-11-15");
        // The log names no host: its hits are the primary domain's.
        expect(botOf(access, "acme.test", "Claude-SearchBot")?.recent).toEqual({
          hits: 7,
          errors: 5,
          statuses: [
            { status: 404, hits: 4 },
            { status: 200, hits: 2 },
            { status: 503, hits: 1 },
          ],
          last_at: "2026-11-20T07:00:00.000Z",
        });
        expect(botOf(access, "acme.test", "OAI-SearchBot")?.recent).toMatchObject({ hits: 1, errors: 0 });
        expect(botOf(access, "shop.acme-store.test", "Claude-SearchBot")?.recent.hits).toBe(0);

        // The import is new evidence: the stored list is computed again at once.
        const errors = await opportunities(t.key, id, "crawler_errors");
        expect(errors).toHaveLength(1);
        expect(errors[0]).toMatchObject({
          kind: "crawler_errors",
          title: "Fix the errors Claude-SearchBot is served: 5 of its 7 requests in the last 7 days",
          engines: ["claude"],
          domain: null,
          crawler: {
            bot: "Claude-SearchBot",
            operator: "Anthropic",
            robots: null,
            served: {
              since: "2026-11-15",
              hits: 7,
              errors: 5,
              pages: [
                { path: "/old-pricing", status: 404, hits: 4 },
                { path: "/docs", status: 503, hits: 1 },
              ],
            },
          },
        });
        expect(errors[0]?.explanation).toContain("404 on /old-pricing (4×), 503 on /docs (1×)");
      } finally {
        await sites.stop();
      }
    });

    it("checks a brand never checked when its audit is read, refusing private addresses as every outbound request does", async () => {
      // The real fetcher of the route: a resolver answering 127.0.0.1 for every name, which the
      // outbound rules refuse (this harness does not allow private addresses): nothing is contacted.
      const resolver = h.deps.webhookTargets.resolver;
      h.deps.webhookTargets.resolver = { resolve: async () => ["127.0.0.1"] };
      try {
        const t = await h.tenant("agency");
        const ctx = await workspaceContext(h.deps, t.workspace.id);
        const { id } = await createProject(ctx, {
          name: "Nowhere",
          primary_domain: "nowhere.test",
          engines: ["chatgpt"],
        });
        const res = await h.call("getProjectAccess", { key: t.key, params: { id } });
        expect(res.statusCode, res.body).toBe(200);
        const access = res.json() as TrafficAccess;
        expect(access.domains).toHaveLength(1);
        expect(access.domains[0]).toMatchObject({
          domain: "nowhere.test",
          error:
            "robots.txt could not be read: refused: nowhere.test resolves to 127.0.0.1, which is not a public address",
          robots_txt: { status: null, found: false },
          llms_txt: { present: false, status: null },
        });
        for (const bot of access.domains[0]?.bots ?? []) expect(bot.verdict).toBe("unknown");
        // Not reaching a site is no block: no opportunity.
        expect(await opportunities(t.key, id, "crawler_blocked")).toEqual([]);
      } finally {
        h.deps.webhookTargets.resolver = resolver;
      }
    });

    it("re-checks daily: the scheduler queues a job per brand due, once, and the job reads the sites again", async () => {
      const sites = await brandSites();
      const start = h.clock.now();
      try {
        const checked = await brand(h);
        const { t, ctx, id } = checked;
        await checkAccess(ctx, id, { fetcher: sites.fetcher });
        // A brand with AI bot hits and no audit is due at once; one with neither is never.
        const withTraffic = await brand(h);
        await importTrafficLogs(withTraffic.ctx, withTraffic.id, {
          body: Readable.from([
            '198.51.100.7 - - [20/Nov/2026:10:00:00 +0000] "GET / HTTP/1.1" 200 100 "-" "ClaudeBot/1.0"\n',
          ]),
          source: "api",
        });
        const idle = await brand(h);
        const jobsOf = (b: { t: { workspace: { id: string } }; id: string }) =>
          h.deps.db
            .selectFrom("jobs")
            .selectAll()
            .where("kind", "=", ACCESS_CHECK_JOB)
            .where("payload", "=", JSON.stringify({ workspace_id: b.t.workspace.id, project_id: b.id }))
            .execute();

        await queueAccessChecks(h.deps);
        expect(await jobsOf(checked)).toEqual([]);
        expect(await jobsOf(withTraffic)).toHaveLength(1);
        expect(await jobsOf(idle)).toEqual([]);

        // A day later the audit is due; queued once however often the scheduler ticks.
        h.clock.advance(86_400_000);
        await queueAccessChecks(h.deps);
        await queueAccessChecks(h.deps);
        const jobs = await jobsOf(checked);
        expect(jobs).toHaveLength(1);

        // Meanwhile the brand opened its robots.txt to OAI-SearchBot.
        sites.site.pages.set("/robots.txt", {
          type: "text/plain",
          body: ROBOTS.replace("Disallow: /\n", "Allow: /\n"),
        });
        const before = await opportunities(t.key, id, "crawler_blocked");
        expect(before.some((o) => o.domain === "acme.test")).toBe(true);
        const job = jobs[0];
        if (job === undefined) throw new Error("no job");
        const handler = checkAccessHandler(h.deps, () => sites.fetcher);
        const claimed = {
          id: job.id,
          kind: job.kind,
          payload: jobColumns.payload.read(job.payload),
          attempt: 1,
          maxAttempts: 1,
          createdAt: job.created_at,
        };
        expect(await handler(claimed)).toEqual({ status: "succeeded" });
        const access = await getAccess(ctx, id);
        expect(access.checked_at).toBe(h.clock.now().toISOString());
        expect(botOf(access, "acme.test", "OAI-SearchBot")).toMatchObject({ verdict: "allowed", rule: { line: 7 } });
        expect((await opportunities(t.key, id, "crawler_blocked")).some((o) => o.domain === "acme.test")).toBe(false);

        // The same job again (queued twice by two workers) reads nothing: the audit is a day fresh.
        const asked = sites.site.asked.length;
        expect(await handler(claimed)).toEqual({ status: "succeeded" });
        expect(sites.site.asked).toHaveLength(asked);

        // A check that failed (its job dead) waits for the next day, not for the next tick.
        h.clock.advance(86_400_000);
        const failedAt = (ago: number) => new Date(h.clock.now().getTime() - ago).toISOString();
        await h.deps.db
          .updateTable("jobs")
          .set({ status: "dead", updated_at: failedAt(3_600_000) })
          .where("id", "=", job.id)
          .execute();
        await queueAccessChecks(h.deps);
        expect(await jobsOf(checked)).toHaveLength(1);
        await h.deps.db
          .updateTable("jobs")
          .set({ updated_at: failedAt(25 * 3_600_000) })
          .where("id", "=", job.id)
          .execute();
        await queueAccessChecks(h.deps);
        expect((await jobsOf(checked)).map((j) => j.status).sort()).toEqual(["dead", "pending"]);
        await h.deps.db.updateTable("jobs").set({ status: "succeeded" }).where("kind", "=", ACCESS_CHECK_JOB).execute();
      } finally {
        h.clock.set(start);
        await sites.stop();
      }
    });
  },
  { config: { botRangesFile: rangesFile } },
);

describe("crawler opportunities, ranked by the answers of the engines the bot feeds", () => {
  const answer = (id: string, engine: string): AnswerRow => ({
    id,
    analysis_id: "ana_1",
    engine,
    prompt: "best tool?",
    created_at: "2026-11-20T10:00:00.000Z",
    mentioned: true,
    stance: null,
    text: "",
    citations: [],
    competitorsNamed: [],
    searches: [],
  });
  const bot = (name: string): Bot => {
    const found = BOTS.find((b) => b.name === name);
    if (found === undefined) throw new Error(name);
    return found;
  };

  it("weighs a block by the share of the period's answers its engines gave, and leaves untracked engines out", () => {
    const rows = [
      answer("r1", "chatgpt"),
      answer("r2", "chatgpt"),
      answer("r3", "chatgpt_web"),
      answer("r4", "claude"),
    ];
    const block = (name: string) => ({
      domain: "acme.test",
      bot: bot(name),
      robotsUrl: "https://acme.test/robots.txt",
      robotsStatus: 200,
      group: "*",
      rule: { line: 2, text: "Disallow: /" },
      reason: "",
    });
    const found = crawlerOpportunities(
      { blocks: [block("OAI-SearchBot"), block("Googlebot")], errors: [] },
      ["chatgpt", "chatgpt_web", "claude"],
      rows,
    );
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      kind: "crawler_blocked",
      answers: 3,
      impact: 0.75,
      engines: ["chatgpt", "chatgpt_web"],
      title:
        "OAI-SearchBot is blocked by acme.test/robots.txt line 2: ChatGPT and ChatGPT (web) cannot cite your pages",
    });
    // Blocked by the group for *: the fix is a group of its own.
    expect(found[0]?.explanation).toContain('Give it a group of its own ("User-agent: OAI-SearchBot" with "Allow: /")');
  });
});

describe("one domain's check", () => {
  it("reads a robots.txt served as a web page as none, and a site it cannot reach as unknown", async () => {
    const spa = await new Site().start();
    try {
      spa.pages.set("/robots.txt", { body: "<!doctype html><html><body>App</body></html>" });
      spa.pages.set("/llms.txt", { body: "<!doctype html><html><body>App</body></html>" });
      const real = new HttpPageFetcher({ allowPrivate: true, resolver: { resolve: async () => ["127.0.0.1"] } });
      const fetcher: PageFetcher = {
        get: (url, deadline) =>
          url.includes("spa.test")
            ? real
                .get(new URL(new URL(url).pathname, spa.url).toString(), deadline)
                .then((result) => ({ ...result, url: result.url.replace(spa.url, "https://spa.test") }))
            : Promise.resolve({ ok: false, url, reason: "no such domain was found" }),
      };
      const page = await checkDomain(fetcher, "spa.test", Date.now() + 5_000);
      expect(page).toMatchObject({ robotsStatus: 200, llmsStatus: 200, error: null });
      expect(page.verdicts).toMatchObject({ robots_found: false, llms_present: false });
      expect(new Set(page.verdicts.bots.map((b) => b.verdict))).toEqual(new Set(["allowed"]));

      const gone = await checkDomain(fetcher, "gone.test", Date.now() + 5_000);
      expect(gone).toMatchObject({
        robotsStatus: null,
        llmsStatus: null,
        error: "robots.txt could not be read: no such domain was found",
      });
      expect(new Set(gone.verdicts.bots.map((b) => b.verdict))).toEqual(new Set(["unknown"]));
      // No time left: nothing is asked.
      const late = await checkDomain(fetcher, "spa.test", Date.now() - 1);
      expect(late.error).toContain("ran out");
      expect(spa.asked).toEqual(["/robots.txt", "/llms.txt"]);
    } finally {
      await spa.stop();
    }
  });
});
