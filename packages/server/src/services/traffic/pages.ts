import type { Static } from "typebox";
import { periodOf, spansOf } from "../analytics/period.ts";
import { inSpans } from "../analytics/tally.ts";
import type { ServiceContext } from "../context.ts";
import { getProject } from "../projects/projects.ts";
import { visitsBySource } from "./referral-sources.ts";
import type { TrafficPagesSchema } from "./schemas.ts";

/**
 * The brand's pages joined page by page (issue 26): for every page of its domains that the AI bots
 * crawled, the engines cited or the engines sent visitors to, over a period: crawls by bot (and how
 * many were verified, and served an error), the citations by engine from the measured answers, and
 * the visits each engine referred. A page is its path: the log may not say which of the brand's
 * domains it served, so the same path on two of them is one page.
 */
export interface TrafficPagesQuery {
  from?: string;
  to?: string;
  limit?: number;
  page?: number;
}

export type TrafficPages = Static<typeof TrafficPagesSchema>;
type Page = TrafficPages["data"][number];

/** A page's path from a URL or a logged path: no query, no trailing slash but the root's. */
export function pagePath(urlOrPath: string): string {
  let path = urlOrPath;
  if (/^https?:\/\//i.test(path)) {
    try {
      path = new URL(path).pathname;
    } catch {
      return urlOrPath;
    }
  }
  path = path.split(/[?#]/)[0] ?? "/";
  if (path.length > 1 && path.endsWith("/")) path = path.slice(0, -1);
  return path === "" ? "/" : path;
}

const sorted = <T>(map: Map<string, number>, make: (key: string, n: number) => T, n: (t: T) => number) =>
  [...map.entries()].map(([key, value]) => make(key, value)).sort((a, b) => n(b) - n(a));

export async function trafficPages(
  ctx: ServiceContext,
  projectId: string,
  query: TrafficPagesQuery,
): Promise<TrafficPages> {
  await getProject(ctx, projectId);
  const period = periodOf(query, ctx.clock);
  const limit = query.limit ?? 50;
  const offset = ((query.page ?? 1) - 1) * limit;

  const hits = await ctx.db
    .selectFrom("traffic_bot_hits")
    .select(["path", "bot", "verification", "status", "hits", "last_at"])
    .where("workspace_id", "=", ctx.workspace.id)
    .where("project_id", "=", projectId)
    .where("day", ">=", period.fromDay)
    .where("day", "<", period.toDay)
    .execute();
  const visits = await visitsBySource(
    ctx.db
      .selectFrom("traffic_referrals")
      .where("workspace_id", "=", ctx.workspace.id)
      .where("project_id", "=", projectId)
      .where("day", ">=", period.fromDay)
      .where("day", "<", period.toDay),
  ).execute();
  const cited = await ctx.db
    .selectFrom("source_rollups")
    .where((eb) => inSpans(eb, ctx.workspace.id, projectId, spansOf(period.fromDay, period.toDay)))
    .where("kind", "=", "brand")
    .select(["url", "engine"])
    .select((eb) => eb.fn.sum<number>("citations").as("citations"))
    .groupBy(["url", "engine"])
    .execute();

  interface Building {
    crawls: number;
    verified: number;
    errors: number;
    last: string | null;
    bots: Map<string, number>;
    citations: Map<string, number>;
    visits: Map<string, number>;
  }
  const pages = new Map<string, Building>();
  const page = (path: string): Building => {
    const key = pagePath(path);
    let found = pages.get(key);
    if (found === undefined) {
      found = {
        crawls: 0,
        verified: 0,
        errors: 0,
        last: null,
        bots: new Map(),
        citations: new Map(),
        visits: new Map(),
      };
      pages.set(key, found);
    }
    return found;
  };
  for (const row of hits) {
    const p = page(row.path);
    const n = Number(row.hits);
    p.crawls += n;
    if (row.verification === "verified") p.verified += n;
    if (Number(row.status) >= 400) p.errors += n;
    if (p.last === null || row.last_at > p.last) p.last = row.last_at;
    p.bots.set(row.bot, (p.bots.get(row.bot) ?? 0) + n);
  }
  // Logs and GA4 may count the same visits: per day, page and engine, the larger count (referral-sources.ts).
  const counted = new Map<string, { path: string; engine: string; logs: number; ga4: number }>();
  for (const row of visits) {
    const path = pagePath(row.path);
    const key = `${row.day}\u0000${path}\u0000${row.engine}`;
    const found = counted.get(key) ?? { path, engine: row.engine, logs: 0, ga4: 0 };
    found.logs += Number(row.logs);
    found.ga4 += Number(row.ga4);
    counted.set(key, found);
  }
  for (const row of counted.values()) {
    const p = page(row.path);
    p.visits.set(row.engine, (p.visits.get(row.engine) ?? 0) + Math.max(row.logs, row.ga4));
  }
  for (const row of cited) {
    const p = page(row.url);
    p.citations.set(row.engine, (p.citations.get(row.engine) ?? 0) + Number(row.citations));
  }
  const all: Page[] = [...pages.entries()].map(([path, p]) => {
    const citations = [...p.citations.values()].reduce((a, b) => a + b, 0);
    const visitsTotal = [...p.visits.values()].reduce((a, b) => a + b, 0);
    return {
      path,
      crawls: {
        total: p.crawls,
        verified: p.verified,
        errors: p.errors,
        last_at: p.last,
        by_bot: sorted(
          p.bots,
          (bot, n) => ({ bot, hits: n }),
          (x) => x.hits,
        ),
      },
      citations: {
        total: citations,
        by_engine: sorted(
          p.citations,
          (engine, n) => ({ engine, citations: n }),
          (x) => x.citations,
        ),
      },
      referrals: {
        total: visitsTotal,
        by_engine: sorted(
          p.visits,
          (engine, n) => ({ engine, visits: n }),
          (x) => x.visits,
        ),
      },
      crawled_not_cited: p.crawls > 0 && citations === 0,
      cited_not_crawled: citations > 0 && p.crawls === 0,
      cited_and_visited: citations > 0 && visitsTotal > 0,
    };
  });
  all.sort(
    (a, b) =>
      b.citations.total - a.citations.total ||
      b.crawls.total - a.crawls.total ||
      b.referrals.total - a.referrals.total ||
      a.path.localeCompare(b.path),
  );
  return {
    object: "traffic_pages",
    project_id: projectId,
    from: period.fromDay,
    to: period.toDay,
    total: all.length,
    data: all.slice(offset, offset + limit),
  };
}
