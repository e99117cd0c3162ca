import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { beforeAll, describe, expect, it } from "vitest";
import { toJson } from "../../src/lib/json.ts";
import { count } from "../../src/lib/plural.ts";
import { engineTitle } from "../../src/services/labels.ts";
import { trafficDays } from "../../src/services/reports/traffic.ts";
import { checkAccess } from "../../src/services/traffic/access.ts";
import { BOTS } from "../../src/services/traffic/bots.ts";
import { importTrafficLogs } from "../../src/services/traffic/import.ts";
import { HttpPageFetcher, type PageFetcher } from "../../src/services/websites/fetcher.ts";
import { workspaceContext } from "../../src/services/workspaces/workspaces.ts";
import { describeEachDialect, type Harness, type Tenant } from "../helpers/harness.ts";
import { readPdf } from "../helpers/pdf.ts";
import { Site } from "../helpers/website.ts";

// Ranges of this test's own, in documentation addresses: GPTBot is verified from 192.0.2.0/25,
// OAI-SearchBot from 192.0.2.128/25; every other bot has none (unverifiable).
const dir = mkdtempSync(join(tmpdir(), "sightline-report-traffic-"));
const rangesFile = join(dir, "ranges.json");
writeFileSync(rangesFile, JSON.stringify({ GPTBot: ["192.0.2.0/25"], "OAI-SearchBot": ["192.0.2.128/25"] }));

/** What one generated line is, as the test means it (the expectation is counted from these). */
type Kind =
  | "gpt_verified"
  | "gpt_spoofed"
  | "search_verified"
  | "claude"
  | "perplexity_bot"
  | "from_chatgpt"
  | "from_chatgpt_utm"
  | "from_perplexity"
  | "from_google"
  | "direct";

const KINDS: { kind: Kind; weight: number }[] = [
  { kind: "gpt_verified", weight: 40 },
  { kind: "gpt_spoofed", weight: 4 },
  { kind: "search_verified", weight: 9 },
  { kind: "claude", weight: 7 },
  { kind: "perplexity_bot", weight: 3 },
  { kind: "from_chatgpt", weight: 5 },
  { kind: "from_chatgpt_utm", weight: 2 },
  { kind: "from_perplexity", weight: 2 },
  { kind: "from_google", weight: 14 },
  { kind: "direct", weight: 14 },
];

const HUMAN = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) HumanBrowser/123.4";
const AGENTS: Partial<Record<Kind, string>> = {
  gpt_verified:
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.2; +https://openai.com/gptbot",
  gpt_spoofed: "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.2; +https://openai.com/gptbot",
  search_verified: "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.0",
  claude: "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)",
  perplexity_bot: "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0)",
};

/** A seeded generator (mulberry32): the same lines on every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Line {
  day: string;
  kind: Kind;
  text: string;
}

/** `n` combined-format lines from 13 to 22 Nov 2026, only from documentation addresses. */
function generate(n: number, seed: number): Line[] {
  const next = random(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)] as T;
  const total = KINDS.reduce((sum, k) => sum + k.weight, 0);
  const pages = ["/", "/pricing", "/features", "/blog/crm-for-agencies", "/docs/setup", "/about"];
  const lines: Line[] = [];
  for (let i = 0; i < n; i++) {
    let roll = next() * total;
    let kind: Kind = "direct";
    for (const k of KINDS) {
      roll -= k.weight;
      if (roll < 0) {
        kind = k.kind;
        break;
      }
    }
    const date = 13 + Math.floor(next() * 10);
    const time = `${String(date).padStart(2, "0")}/Nov/2026:${String(Math.floor(next() * 24)).padStart(2, "0")}:${String(Math.floor(next() * 60)).padStart(2, "0")}:07 +0000`;
    const octet = (low: number, high: number) => low + Math.floor(next() * (high - low + 1));
    const ip =
      kind === "gpt_verified"
        ? `192.0.2.${octet(1, 126)}`
        : kind === "search_verified"
          ? `192.0.2.${octet(129, 254)}`
          : kind === "gpt_spoofed"
            ? `198.51.100.${octet(1, 254)}`
            : `203.0.113.${octet(1, 254)}`;
    let path = pick(pages);
    let referrer = "-";
    if (kind === "from_chatgpt") referrer = "https://chatgpt.com/";
    if (kind === "from_perplexity") referrer = "https://www.perplexity.ai/search?q=crm";
    if (kind === "from_google") referrer = "https://www.google.com/";
    if (kind === "from_chatgpt_utm") path = `${path}?utm_source=chatgpt.com`;
    const status = next() < 0.9 ? 200 : 404;
    const agent = AGENTS[kind] ?? HUMAN;
    lines.push({
      day: `2026-11-${date}`,
      kind,
      text: `${ip} - - [${time}] "GET ${path} HTTP/1.1" ${status} 5120 "${referrer}" "${agent}"`,
    });
  }
  return lines;
}

/** The traffic section the lines of [from, to) make, counted from what each line was generated as. */
function expectedCounts(lines: Line[], from: string, to: string) {
  const inside = lines.filter((l) => l.day >= from && l.day < to);
  const n = (...kinds: Kind[]) => inside.filter((l) => kinds.includes(l.kind)).length;
  const bots = [
    { bot: "GPTBot", operator: "OpenAI", verified: n("gpt_verified"), spoofed: n("gpt_spoofed"), unverifiable: 0 },
    { bot: "OAI-SearchBot", operator: "OpenAI", verified: n("search_verified"), spoofed: 0, unverifiable: 0 },
    { bot: "ClaudeBot", operator: "Anthropic", verified: 0, spoofed: 0, unverifiable: n("claude") },
    { bot: "PerplexityBot", operator: "Perplexity", verified: 0, spoofed: 0, unverifiable: n("perplexity_bot") },
  ]
    .map((b) => ({ ...b, hits: b.verified + b.spoofed + b.unverifiable }))
    .filter((b) => b.hits > 0)
    .sort((a, b) => b.hits - a.hits || a.bot.localeCompare(b.bot));
  const engines = [
    { engine: "chatgpt", visits: n("from_chatgpt", "from_chatgpt_utm") },
    { engine: "perplexity", visits: n("from_perplexity") },
  ]
    .filter((e) => e.visits > 0)
    .sort((a, b) => b.visits - a.visits || a.engine.localeCompare(b.engine));
  return {
    totals: {
      bot_hits: n("gpt_verified", "gpt_spoofed", "search_verified", "claude", "perplexity_bot"),
      verified: n("gpt_verified", "search_verified"),
      spoofed: n("gpt_spoofed"),
      unverifiable: n("claude", "perplexity_bot"),
      referrals: n("from_chatgpt", "from_chatgpt_utm", "from_perplexity"),
    },
    bots,
    engines,
  };
}

/** acme.test blocks OAI-SearchBot on line 3; acme-down.test's robots.txt answers 503 (every bot blocked). */
const ROBOTS = ["# Acme", "User-agent: OAI-SearchBot", "Disallow: /", "", "User-agent: *", "Allow: /", ""].join("\n");

/** The brand's domains as local sites on 127.0.0.1: nothing else is ever asked. */
async function brandSites() {
  const site = await new Site().start();
  site.pages.set("/robots.txt", { type: "text/plain", body: ROBOTS });
  const down = await new Site().start();
  down.pages.set("/robots.txt", { status: 503, type: "text/plain", body: "maintenance" });
  const sites = new Map([
    ["acme.test", site],
    ["globex.test", site],
    ["hooli.test", site],
    ["acme-down.test", down],
  ]);
  const real = new HttpPageFetcher({ allowPrivate: true, resolver: { resolve: async () => ["127.0.0.1"] } });
  const fetcher: PageFetcher = {
    get(url, deadline) {
      const asked = new URL(url);
      const local = sites.get(asked.hostname);
      if (local === undefined) return Promise.resolve({ ok: false, url, reason: "no such domain was found" });
      return real
        .get(new URL(`${asked.pathname}${asked.search}`, local.url).toString(), deadline)
        .then((result) => ({ ...result, url: result.url.replace(local.url, asked.origin) }));
    },
  };
  return { fetcher, stop: () => Promise.all([site.stop(), down.stop()]) };
}

/** The page's text, as a reader sees it. */
const pageText = (html: string) =>
  html
    .replace(/<style>[\s\S]*?<\/style>/, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");

/** pdf.js may cut a line anywhere a wrap falls (after a hyphen too): compared without white space. */
const squeeze = (text: string) => text.replace(/\s/g, "");

const SECTION = "AI crawlers and referrals";

interface StoredReport {
  id: string;
  data: { traffic?: unknown; opportunities?: unknown };
}

describeEachDialect(
  "a report's AI crawlers and referrals (issue 26)",
  (h: Harness) => {
    let t: Tenant;
    const lines = generate(4000, 26);

    /** A brand and the report of one sandbox analysis of it, after `before` gave it traffic. */
    async function reportOf(
      body: Record<string, unknown>,
      before: (projectId: string) => Promise<void> = async () => {},
    ): Promise<StoredReport> {
      const created = await h.call("createProject", { key: t.key, body });
      expect(created.statusCode, created.body).toBe(201);
      const projectId: string = created.json().id;
      await before(projectId);
      const res = await h.call("analyze", {
        key: t.key,
        body: { project_id: projectId, engines: ["sandbox"], samples: 1, wait: 30 },
      });
      expect(res.statusCode, res.body).toBe(200);
      const [listed] = (await h.call("listReports", { key: t.key, query: { project_id: projectId } })).json().data;
      return (await h.call("getReport", { key: t.key, params: { id: listed.id } })).json();
    }

    const html = async (id: string) => {
      const res = await h.call("getReport", { key: t.key, params: { id }, query: { format: "html" } });
      expect(res.statusCode).toBe(200);
      return pageText(res.body);
    };
    const pdf = async (id: string) => {
      const res = await h.call("getReport", { key: t.key, params: { id }, query: { format: "pdf" } });
      expect(res.statusCode).toBe(200);
      return (await readPdf(new Uint8Array(res.rawPayload))).text.replace(/\s+/g, " ");
    };

    beforeAll(async () => {
      await h.startWorker();
      t = await h.tenant("agency");
    });

    it("stores the period's crawlers, referrals and robots.txt blocks, recounted exactly from the lines, and shows them in the page and the PDF", async () => {
      const sites = await brandSites();
      let report: StoredReport;
      try {
        report = await reportOf(
          {
            name: "Acme CRM",
            primary_domain: "acme.test",
            other_domains: ["acme-down.test"],
            engines: ["sandbox", "chatgpt"],
            prompts: ["best CRM for a small agency"],
          },
          async (projectId) => {
            const ctx = await workspaceContext(h.deps, t.workspace.id);
            const imported = await importTrafficLogs(ctx, projectId, {
              body: Readable.from([`${lines.map((l) => l.text).join("\n")}\n`]),
              source: "cli",
            });
            expect(imported).toMatchObject({ lines: lines.length, rejected: 0 });
            await checkAccess(ctx, projectId, { fetcher: sites.fetcher });
          },
        );
      } finally {
        await sites.stop();
      }

      // The analysis ran at the harness's clock (21 Nov 2026, 12:00 UTC): the 7 UTC days to it.
      const { from, to } = { from: "2026-11-15", to: "2026-11-22" };
      const expected = expectedCounts(lines, from, to);
      // Lines fall on both sides of the window, so the window is what is counted.
      expect(lines.some((l) => l.day < from) && lines.some((l) => l.day >= to)).toBe(true);
      expect(expected.totals.bot_hits).toBeGreaterThan(1000);
      const stored = report.data.traffic as {
        blocked: { domain: string; bot: string; line: number | null }[];
      };
      expect({ ...stored, blocked: undefined }).toEqual({ from, to, ...expected, blocked: undefined });
      // OAI-SearchBot by its line on acme.test; every bot by acme-down.test's 503.
      expect(stored.blocked).toHaveLength(1 + BOTS.length);
      expect(stored.blocked[0]?.domain).toBe("acme.test");
      expect(stored.blocked).toContainEqual({
        bot: "OAI-SearchBot",
        operator: "OpenAI",
        domain: "acme.test",
        robots_url: "https://acme.test/robots.txt",
        robots_status: 200,
        line: 3,
        rule: "Disallow: /",
        group: "OAI-SearchBot",
        engines: ["chatgpt"],
      });
      const down = stored.blocked.filter((b) => b.domain === "acme-down.test");
      expect(down.map((b) => b.bot).sort()).toEqual(BOTS.map((b) => b.name).sort());
      expect(down.every((b) => b.line === null)).toBe(true);

      const gpt = expected.bots.find((b) => b.bot === "GPTBot");
      const search = expected.bots.find((b) => b.bot === "OAI-SearchBot");
      const claude = expected.bots.find((b) => b.bot === "ClaudeBot");
      if (gpt === undefined || search === undefined || claude === undefined) throw new Error("a bot has no lines");
      const chatgpt = expected.engines.find((e) => e.engine === "chatgpt")?.visits ?? 0;
      const perplexity = expected.engines.find((e) => e.engine === "perplexity")?.visits ?? 0;
      const number = (n: number) => n.toLocaleString("en-US");
      const sentences = [
        SECTION,
        `AI crawlers read ${count(expected.totals.bot_hits, "page")} of the brand's sites: ${number(expected.totals.verified)} verified from their operators' published addresses, ${number(expected.totals.unverifiable)} from bots whose addresses cannot be checked and ${number(expected.totals.spoofed)} from other addresses using a bot's name.`,
        `GPTBot read ${count(gpt.hits, "page")} (${number(gpt.verified)} from OpenAI's published addresses; ${number(gpt.spoofed)} from other addresses using its name).`,
        `OAI-SearchBot read ${count(search.hits, "page")} (all from OpenAI's published addresses).`,
        `ClaudeBot read ${count(claude.hits, "page")} (none could be checked against published addresses).`,
        `AI engines sent ${count(chatgpt + perplexity, "visit")}: ${engineTitle("chatgpt")} sent ${count(chatgpt, "visit")} and ${engineTitle("perplexity")} sent ${count(perplexity, "visit")}.`,
        // The primary domain first; a robots.txt answering 503 blocks every bot, those feeding the brand's engines named first.
        `Warning: acme.test/robots.txt line 3, "Disallow: /" (for User-agent: OAI-SearchBot), blocks OAI-SearchBot (OpenAI) from every page. It feeds ${engineTitle("chatgpt")}, which the brand tracks. Warning: acme-down.test/robots.txt answered 503: while it does, ${BOTS.length} AI bots (OAI-SearchBot, ChatGPT-User, GPTBot and ${BOTS.length - 3} more) must treat every page as blocked. OAI-SearchBot, ChatGPT-User and GPTBot feed ${engineTitle("chatgpt")}, which the brand tracks.`,
        "15–21 Nov 2026 (UTC days)",
      ];
      const page = await html(report.id);
      for (const sentence of sentences) expect(page).toContain(sentence);
      // After the opportunities, before the sources.
      expect(page.indexOf("Opportunities")).toBeLessThan(page.indexOf(SECTION));
      expect(page.indexOf(SECTION)).toBeLessThan(page.indexOf(" Sources "));
      expect(page).not.toMatch(/undefined|NaN|\bchatgpt\b/);

      const text = squeeze(await pdf(report.id));
      for (const sentence of sentences) expect(text).toContain(squeeze(sentence));
      expect(text).not.toMatch(/undefined|NaN/);
    });

    it("has no section for a brand without traffic or a blocked bot, and one for a brand whose robots.txt blocks a bot", async () => {
      const none = await reportOf({ name: "Initech", primary_domain: "initech.example", prompts: ["best CRM?"] });
      expect(none.data).not.toHaveProperty("traffic");
      expect(await html(none.id)).not.toContain(SECTION);
      expect(await pdf(none.id)).not.toContain(SECTION);

      const sites = await brandSites();
      let blocked: StoredReport;
      try {
        blocked = await reportOf(
          { name: "Globex", primary_domain: "globex.test", engines: ["sandbox"], prompts: ["best CRM?"] },
          async (projectId) => {
            await checkAccess(await workspaceContext(h.deps, t.workspace.id), projectId, { fetcher: sites.fetcher });
          },
        );
      } finally {
        await sites.stop();
      }
      expect(blocked.data.traffic).toMatchObject({
        totals: { bot_hits: 0, verified: 0, spoofed: 0, unverifiable: 0, referrals: 0 },
        bots: [],
        engines: [],
        blocked: [{ bot: "OAI-SearchBot", domain: "globex.test", line: 3, engines: [] }],
      });
      const page = await html(blocked.id);
      expect(page).toContain("No AI crawler was counted in these days");
      expect(page).toContain("No AI engine referred a visit in these days.");
      expect(page).toContain(
        'Warning: globex.test/robots.txt line 3, "Disallow: /" (for User-agent: OAI-SearchBot), blocks OAI-SearchBot (OpenAI) from every page.',
      );
      // Not tracked by the brand: no engine is named for it.
      expect(page).not.toContain("which the brand tracks");
    });

    it("still reads and renders a report stored before the section", async () => {
      const sites = await brandSites();
      let report: StoredReport;
      try {
        report = await reportOf(
          { name: "Hooli", primary_domain: "hooli.test", engines: ["sandbox"], prompts: ["best CRM?"] },
          async (projectId) => {
            await checkAccess(await workspaceContext(h.deps, t.workspace.id), projectId, { fetcher: sites.fetcher });
          },
        );
      } finally {
        await sites.stop();
      }
      expect(report.data).toHaveProperty("traffic");
      // As generated before issue 26: the same data without the field.
      const { traffic: _, ...older } = report.data;
      await h.deps.db
        .updateTable("reports")
        .set({ data: toJson(older) })
        .where("workspace_id", "=", t.workspace.id)
        .where("id", "=", report.id)
        .execute();

      const json = await h.call("getReport", { key: t.key, params: { id: report.id } });
      expect(json.statusCode).toBe(200);
      expect(json.json().data).not.toHaveProperty("traffic");
      const page = await html(report.id);
      expect(page).toContain("Opportunities");
      expect(page).not.toContain(SECTION);
      const text = await pdf(report.id);
      expect(text).toContain("Opportunities");
      expect(text).not.toContain(SECTION);
    });
  },
  { config: { botRangesFile: rangesFile } },
);

describe("a report's traffic days", () => {
  it("are a weekly digest's week exactly, and the 7 UTC days to an analysis (its own day included)", () => {
    expect(trafficDays({ start: "2026-11-16T00:00:00.000Z", end: "2026-11-23T00:00:00.000Z" })).toEqual({
      from: "2026-11-16",
      to: "2026-11-23",
    });
    expect(trafficDays({ start: "2026-11-21T12:00:00.000Z", end: "2026-11-21T12:03:10.000Z" })).toEqual({
      from: "2026-11-15",
      to: "2026-11-22",
    });
    // An analysis across midnight: both days, still 7 at least.
    expect(trafficDays({ start: "2026-11-21T23:58:00.000Z", end: "2026-11-22T00:01:00.000Z" })).toEqual({
      from: "2026-11-16",
      to: "2026-11-23",
    });
    // A longer period: every day it touches.
    expect(trafficDays({ start: "2026-11-01T08:00:00.000Z", end: "2026-11-21T09:00:00.000Z" })).toEqual({
      from: "2026-11-01",
      to: "2026-11-22",
    });
  });
});
