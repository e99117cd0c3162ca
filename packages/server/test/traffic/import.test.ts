import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { gzipSync } from "node:zlib";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRuntime, type Runtime } from "../../src/app/runtime.ts";
import type { ServiceContext } from "../../src/services/context.ts";
import { createProject } from "../../src/services/projects/projects.ts";
import { prune } from "../../src/services/retention/prune.ts";
import { importTrafficLogs } from "../../src/services/traffic/import.ts";
import { trafficSummary } from "../../src/services/traffic/summary.ts";
import { createWorkspace, workspaceContext } from "../../src/services/workspaces/workspaces.ts";
import { runCliInProcess } from "../helpers/cli-io.ts";
import { createTestDatabase, DIALECTS, type TestDatabase } from "../helpers/databases.ts";

// Ranges of this test's own, so that it does not move when the shipped file is refreshed.
const dir = mkdtempSync(join(tmpdir(), "sightline-traffic-"));
const rangesFile = join(dir, "ranges.json");
writeFileSync(rangesFile, JSON.stringify({ GPTBot: ["192.0.2.0/25"], "OAI-SearchBot": ["192.0.2.128/25"] }));

const HUMAN_IP = "203.0.113.77";
const HUMAN_AGENT = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) HumanBrowser/123.4";

/** A combined-format line. */
function combined(ip: string, time: string, path: string, status: number, referrer: string, agent: string): string {
  return `${ip} - - [${time}] "GET ${path} HTTP/1.1" ${status} 512 "${referrer}" "${agent}"`;
}

/** A day of the brand's log: bots verified and spoofed, AI referrals, humans, and two bad lines. */
function dayOfLog(): string {
  return [
    combined("192.0.2.10", "20/Nov/2026:08:00:00 +0000", "/pricing", 200, "-", "Mozilla/5.0; compatible; GPTBot/1.2"),
    combined("192.0.2.11", "20/Nov/2026:09:30:00 +0000", "/pricing", 200, "-", "Mozilla/5.0; compatible; GPTBot/1.2"),
    combined("198.51.100.9", "20/Nov/2026:10:00:00 +0000", "/pricing", 200, "-", "Mozilla/5.0; compatible; GPTBot/1.2"),
    combined(
      "192.0.2.140",
      "20/Nov/2026:11:00:00 +0000",
      "/docs/old",
      404,
      "-",
      "Mozilla/5.0; compatible; OAI-SearchBot/1.0",
    ),
    combined(
      "198.51.100.5",
      "21/Nov/2026:00:10:00 +0000",
      "/blog/a?x=1",
      200,
      "-",
      "Mozilla/5.0 (compatible; ClaudeBot/1.0)",
    ),
    combined(HUMAN_IP, "20/Nov/2026:12:00:00 +0000", "/pricing", 200, "https://chatgpt.com/", HUMAN_AGENT),
    combined(HUMAN_IP, "20/Nov/2026:12:05:00 +0000", "/features?utm_source=chatgpt.com", 200, "-", HUMAN_AGENT),
    combined(HUMAN_IP, "21/Nov/2026:12:00:00 +0000", "/pricing", 200, "https://www.perplexity.ai/search", HUMAN_AGENT),
    combined(HUMAN_IP, "20/Nov/2026:13:00:00 +0000", "/", 200, "https://www.google.com/", HUMAN_AGENT),
    combined(HUMAN_IP, "20/Nov/2026:13:01:00 +0000", "/about", 200, "-", HUMAN_AGENT),
    "this is not a log line",
    `${HUMAN_IP} - - [99/Nov/2026:13:01:00 +0000] "GET / HTTP/1.1" 200 1 "-" "${HUMAN_AGENT}"`,
    "",
  ].join("\n");
}

describe.each(DIALECTS)("importing access logs [%s] (issue 26)", (dialect) => {
  let db: TestDatabase;
  let runtime: Runtime;
  let ctx: ServiceContext;
  let other: ServiceContext;
  let projectId: string;
  beforeAll(async () => {
    db = await createTestDatabase(dialect);
    runtime = await createRuntime({ database: db.config, botRangesFile: rangesFile }, pino({ level: "silent" }));
    ctx = await workspaceContext(
      runtime.deps,
      (await createWorkspace(runtime.deps, { name: "Acme", plan: "growth" })).id,
    );
    other = await workspaceContext(
      runtime.deps,
      (await createWorkspace(runtime.deps, { name: "Other", plan: "growth" })).id,
    );
    projectId = (await createProject(ctx, { name: "Acme", primary_domain: "acme.io", prompts: ["best tool?"] })).id;
  });
  afterAll(async () => {
    await runtime.close();
    await db.drop();
  });

  it("counts bot hits by bot and verification and referrals by engine, keeps no human line, and rejects bad lines with reasons", async () => {
    const result = await importTrafficLogs(ctx, projectId, { body: Readable.from([dayOfLog()]), source: "api" });
    expect(result).toMatchObject({
      object: "traffic_import",
      duplicate: false,
      format: "combined",
      lines: 12,
      bot_hits: 5,
      referrals: 3,
      ignored: 2,
      rejected: 2,
    });
    expect(result.reasons.reduce((n, r) => n + r.count, 0)).toBe(2);
    for (const reason of result.reasons) expect(reason.reason).not.toContain(HUMAN_IP);

    const summary = await trafficSummary(ctx, projectId, {});
    expect(summary.totals).toEqual({ bot_hits: 5, verified: 3, spoofed: 1, unverifiable: 1, referrals: 3 });
    expect(summary.bots).toEqual([
      { bot: "GPTBot", operator: "OpenAI", verification: "verified", hits: 2, last_at: "2026-11-20T09:30:00.000Z" },
      {
        bot: "ClaudeBot",
        operator: "Anthropic",
        verification: "unverifiable",
        hits: 1,
        last_at: "2026-11-21T00:10:00.000Z",
      },
      { bot: "GPTBot", operator: "OpenAI", verification: "spoofed", hits: 1, last_at: "2026-11-20T10:00:00.000Z" },
      {
        bot: "OAI-SearchBot",
        operator: "OpenAI",
        verification: "verified",
        hits: 1,
        last_at: "2026-11-20T11:00:00.000Z",
      },
    ]);
    expect(summary.engines).toEqual([
      { engine: "chatgpt", visits: 2 },
      { engine: "perplexity", visits: 1 },
    ]);
    expect(summary.days).toEqual([
      { day: "2026-11-20", bot_hits: 4, referrals: 2 },
      { day: "2026-11-21", bot_hits: 1, referrals: 1 },
    ]);
    // Filters: one engine (its referrals and the hits of the bots that feed it), verified only, a period.
    const chatgpt = await trafficSummary(ctx, projectId, { engine: "chatgpt" });
    expect(chatgpt.totals).toEqual({ bot_hits: 4, verified: 3, spoofed: 1, unverifiable: 0, referrals: 2 });
    const verified = await trafficSummary(ctx, projectId, { verified: true });
    expect(verified.totals).toMatchObject({ bot_hits: 3, spoofed: 0, referrals: 0 });
    const day = await trafficSummary(ctx, projectId, { from: "2026-11-21", to: "2026-11-22" });
    expect(day.totals).toMatchObject({ bot_hits: 1, referrals: 1 });

    // Nothing of a human visitor is stored: no address, no user agent, in any traffic table.
    for (const table of ["traffic_imports", "traffic_bot_hits", "traffic_referrals"] as const) {
      const rows = JSON.stringify(await runtime.deps.db.selectFrom(table).selectAll().execute());
      expect(rows).not.toContain(HUMAN_IP);
      expect(rows).not.toContain("HumanBrowser");
      expect(rows).not.toContain("192.0.2.10");
    }
    // The page's path is kept without its query.
    const pages = await runtime.deps.db.selectFrom("traffic_referrals").select("path").execute();
    expect(pages.map((p) => p.path).sort()).toEqual(["/features", "/pricing", "/pricing"]);
  });

  it("recognises the same batch again, gzip or not, and counts it once", async () => {
    const again = await importTrafficLogs(ctx, projectId, {
      body: Readable.from([gzipSync(dayOfLog())]),
      source: "upload",
    });
    expect(again).toMatchObject({ duplicate: true, bot_hits: 5, referrals: 3 });
    const summary = await trafficSummary(ctx, projectId, {});
    expect(summary.totals.bot_hits).toBe(5);
    expect(summary.totals.referrals).toBe(3);
  });

  it("adds a new batch to the same day's counts", async () => {
    const more = combined("192.0.2.12", "20/Nov/2026:23:59:00 +0000", "/pricing", 200, "-", "GPTBot/1.2");
    const result = await importTrafficLogs(ctx, projectId, {
      body: Readable.from([`${more}\n`]),
      source: "api",
      format: "combined",
    });
    expect(result).toMatchObject({ duplicate: false, bot_hits: 1 });
    const summary = await trafficSummary(ctx, projectId, { bot: "GPTBot", verified: true });
    expect(summary.bots).toEqual([
      { bot: "GPTBot", operator: "OpenAI", verification: "verified", hits: 3, last_at: "2026-11-20T23:59:00.000Z" },
    ]);
  });

  it("counts the same when it holds few rows at a time and puts the rest in a temporary file", async () => {
    // A log whose rows repeat across stretches of it: each stretch's rows go to the file, and
    // the same row from several stretches is added up when written.
    const log = Array.from({ length: 12 }, () => dayOfLog()).join("\n");
    const rowsOf = async (id: string) => ({
      bots: await ctx.db
        .selectFrom("traffic_bot_hits")
        .select(["day", "host", "path", "bot", "verification", "status", "hits", "last_at"])
        .where("project_id", "=", id)
        .orderBy(["day", "path", "bot", "verification", "status"])
        .execute(),
      visits: await ctx.db
        .selectFrom("traffic_referrals")
        .select(["day", "host", "path", "engine", "visits"])
        .where("project_id", "=", id)
        .orderBy(["day", "path", "engine"])
        .execute(),
    });
    const whole = (await createProject(ctx, { name: "Whole", primary_domain: "acme.io", prompts: ["p"] })).id;
    const spilled = (await createProject(ctx, { name: "Spilled", primary_domain: "acme.io", prompts: ["p"] })).id;
    const held = await importTrafficLogs(ctx, whole, { body: Readable.from([log]), source: "api" });
    const written = await importTrafficLogs(ctx, spilled, { body: Readable.from([log]), source: "api", heldRows: 2 });
    expect({ ...written, id: "", project_id: "" }).toEqual({ ...held, id: "", project_id: "" });
    expect(written.bot_hits).toBe(12 * 5);
    const expected = await rowsOf(whole);
    expect(expected.bots.reduce((sum, row) => sum + Number(row.hits), 0)).toBe(60);
    expect(await rowsOf(spilled)).toEqual(expected);
  });

  it("keeps each workspace to its own brands", async () => {
    await expect(trafficSummary(other, projectId, {})).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(
      importTrafficLogs(other, projectId, { body: Readable.from([dayOfLog()]), source: "api" }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(trafficSummary(ctx, projectId, { from: "yesterday" })).rejects.toMatchObject({
      code: "VALIDATION_ERROR",
    });
    await expect(
      importTrafficLogs(ctx, projectId, { body: Readable.from(["?? ?? ??\n!! !!\n"]), source: "api" }),
    ).rejects.toMatchObject({ code: "VALIDATION_ERROR" });
  });

  it("keeps the daily counts for their retention, then deletes the days that fell out of it", async () => {
    const days = async () =>
      (await runtime.deps.db.selectFrom("traffic_bot_hits").select("day").where("project_id", "=", projectId).execute())
        .map((row) => row.day)
        .sort();
    expect(await days()).toContain("2026-11-20");
    // 30 days before 2026-12-21T12:00Z is 2026-11-21T12:00Z: the days before the 21st go.
    const counts = await prune(runtime.deps, new Date("2026-12-21T12:00:00Z"), {
      jobsDays: 7,
      deliveriesDays: 30,
      answerTextDays: null,
      trafficDays: 30,
    });
    expect(counts.traffic).toBeGreaterThan(0);
    const left = await days();
    expect(left.length).toBeGreaterThan(0);
    expect(left.every((day) => day >= "2026-11-21")).toBe(true);
    const visits = await runtime.deps.db
      .selectFrom("traffic_referrals")
      .select("day")
      .where("project_id", "=", projectId)
      .execute();
    expect(visits.every((row) => row.day >= "2026-11-21")).toBe(true);
  });

  it("imports files from the command line, gzip too", async () => {
    const plain = join(dir, `${dialect}-access.log`);
    const zipped = join(dir, `${dialect}-access.log.gz`);
    const line = combined("192.0.2.141", "22/Nov/2026:08:00:00 +0000", "/cli", 200, "-", "OAI-SearchBot/1.0");
    writeFileSync(plain, `${line}\n`);
    writeFileSync(
      zipped,
      gzipSync(
        `${line}\n${combined(HUMAN_IP, "22/Nov/2026:08:00:00 +0000", "/cli", 200, "https://claude.ai/", HUMAN_AGENT)}\n`,
      ),
    );
    const env = { DATABASE_URL: db.url, SIGHTLINE_BOT_RANGES_FILE: rangesFile };
    const run = await runCliInProcess(["traffic", "import", plain, zipped, "--project", projectId], env);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`${plain}: 1 lines (combined): 1 AI bot hits, 0 AI referrals, 0 other, 0 rejected`);
    expect(run.stdout).toContain(`${zipped}: 2 lines (combined): 1 AI bot hits, 1 AI referrals, 0 other, 0 rejected`);
    const twice = await runCliInProcess(["traffic", "import", plain, "--project", projectId, "--json"], env);
    expect(JSON.parse(twice.stdout)).toMatchObject([{ duplicate: true, file: plain }]);
    const summary = await trafficSummary(ctx, projectId, { from: "2026-11-22" });
    expect(summary.totals).toMatchObject({ bot_hits: 2, verified: 2, referrals: 1 });
    const bad = await runCliInProcess(["traffic", "import", plain, "--project", projectId, "--format", "iis"], env);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain("--format must be one of");
  });
});
