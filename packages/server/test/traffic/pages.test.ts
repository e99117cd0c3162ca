import { Readable } from "node:stream";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRuntime } from "../../src/app/runtime.ts";
import { createProject } from "../../src/services/projects/projects.ts";
import { resultColumns } from "../../src/services/results/columns.ts";
import { importTrafficLogs } from "../../src/services/traffic/import.ts";
import { pagePath, trafficPages } from "../../src/services/traffic/pages.ts";
import { workspaceContext } from "../../src/services/workspaces/workspaces.ts";
import { runCliInProcess } from "../helpers/cli-io.ts";
import { createTestDatabase, DIALECTS, type TestDatabase } from "../helpers/databases.ts";

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** A combined-format time for `at`, in UTC. */
function clf(at: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${pad(at.getUTCDate())}/${MONTHS[at.getUTCMonth()]}/${at.getUTCFullYear()}:${pad(at.getUTCHours())}:${pad(at.getUTCMinutes())}:${pad(at.getUTCSeconds())} +0000`;
}

describe.each(DIALECTS)("the page join [%s] (issue 26)", (dialect) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase(dialect);
  });
  afterAll(async () => db.drop());

  it("joins crawls, citations from the sandbox's answers and referrals by page, every column recounted from its inputs", async () => {
    const env = { DATABASE_URL: db.url };
    const ws = (
      await runCliInProcess(["workspace", "create", "--name", "Join", "--plan", "growth", "--quiet"], env)
    ).stdout.trim();
    const runtime = await createRuntime({ database: db.config }, pino({ level: "silent" }));
    try {
      const ctx = await workspaceContext(runtime.deps, ws);
      const projectId = (
        await createProject(ctx, {
          name: "Acme",
          primary_domain: "acme.io",
          competitors: [{ name: "Globex", domains: ["globex.com"] }],
          prompts: ["best project tool?", "cheapest project tool?", "project tool for agencies?"],
        })
      ).id;
      const analysis = await runCliInProcess(
        ["analyze", "--project", projectId, "--engines", "sandbox", "--samples", "10", "--json"],
        env,
      );
      expect(analysis.code, analysis.stderr).toBe(0);

      // What the answers cite of the brand's pages, counted from the stored answers themselves.
      const expectedCitations = new Map<string, Map<string, number>>();
      const rows = await runtime.deps.db
        .selectFrom("results")
        .select(["engine", "measure"])
        .where("project_id", "=", projectId)
        .execute();
      for (const row of rows) {
        if (row.measure === null) continue;
        for (const citation of resultColumns.measure.read(row.measure).citations) {
          if (!citation.brand) continue;
          const path = pagePath(citation.url);
          const byEngine = expectedCitations.get(path) ?? new Map<string, number>();
          byEngine.set(row.engine, (byEngine.get(row.engine) ?? 0) + 1);
          expectedCitations.set(path, byEngine);
        }
      }
      expect(expectedCitations.size).toBeGreaterThan(0);

      // A log: OAI-SearchBot crawls the cited page and a 404; GPTBot a page nobody cites; ChatGPT refers visits.
      const now = new Date();
      const hit = (ip: string, path: string, status: number, referrer: string, agent: string) =>
        `${ip} - - [${clf(now)}] "GET ${path} HTTP/1.1" ${status} 100 "${referrer}" "${agent}"`;
      const log = [
        hit("192.0.2.1", "/pricing", 200, "-", "OAI-SearchBot/1.0"),
        hit("192.0.2.2", "/pricing/", 200, "-", "OAI-SearchBot/1.0"),
        hit("192.0.2.3", "/old-page", 404, "-", "OAI-SearchBot/1.0"),
        hit("192.0.2.4", "/about", 200, "-", "GPTBot/1.2"),
        hit("203.0.113.1", "/pricing?utm_source=chatgpt.com", 200, "-", "Mozilla/5.0 Person"),
        hit("203.0.113.2", "/pricing", 200, "https://chatgpt.com/", "Mozilla/5.0 Person"),
        hit("203.0.113.3", "/about", 200, "https://www.google.com/", "Mozilla/5.0 Person"),
      ].join("\n");
      await importTrafficLogs(ctx, projectId, { body: Readable.from([log]), source: "api" });

      const join = await trafficPages(ctx, projectId, {});
      const byPath = new Map(join.data.map((page) => [page.path, page]));
      const paths = new Set([...expectedCitations.keys(), "/pricing", "/old-page", "/about"]);
      expect(join.total).toBe(paths.size);
      for (const [path, byEngine] of expectedCitations) {
        const page = byPath.get(path);
        expect(page?.citations.by_engine).toEqual(
          [...byEngine.entries()].map(([engine, citations]) => ({ engine, citations })),
        );
        expect(page?.citations.total).toBe([...byEngine.values()].reduce((a, b) => a + b, 0));
      }
      const pricing = byPath.get("/pricing");
      expect(pricing?.crawls).toMatchObject({ total: 2, errors: 0, by_bot: [{ bot: "OAI-SearchBot", hits: 2 }] });
      expect(pricing?.referrals).toEqual({ total: 2, by_engine: [{ engine: "chatgpt", visits: 2 }] });
      expect(pricing?.cited_and_visited).toBe(expectedCitations.has("/pricing"));
      expect(byPath.get("/old-page")).toMatchObject({
        crawls: { total: 1, errors: 1 },
        citations: { total: 0 },
        crawled_not_cited: true,
        cited_not_crawled: false,
      });
      expect(byPath.get("/about")).toMatchObject({
        crawls: { total: 1 },
        referrals: { total: 0 },
        crawled_not_cited: true,
      });
      for (const [path] of expectedCitations) {
        if (path === "/pricing") continue;
        expect(byPath.get(path)?.cited_not_crawled).toBe(true);
      }
      // Most cited first, then paged.
      const citationsInOrder = join.data.map((page) => page.citations.total);
      expect(citationsInOrder).toEqual([...citationsInOrder].sort((a, b) => b - a));
      const second = await trafficPages(ctx, projectId, { limit: 1, page: 2 });
      expect(second.data).toEqual(join.data.slice(1, 2));
    } finally {
      await runtime.close();
    }
  });
});
