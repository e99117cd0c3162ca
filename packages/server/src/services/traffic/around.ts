import type { ServiceContext } from "../context.ts";
import { pagePath } from "./pages.ts";

const DAY_MS = 86_400_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export interface AroundCounts {
  before_per_day: number;
  after_per_day: number;
  other_before_per_day: number;
  other_after_per_day: number;
  days_before: number;
  days_after: number;
}

/**
 * AI bots' crawls and AI-referred visits of some pages around a moment (issue 27): per day over
 * the whole UTC days before it from `from`, and after it until `to`, for those pages and for the
 * brand's other pages, as the comparison. Null for a measure the brand has no data of in the window.
 */
export async function trafficAround(
  ctx: ServiceContext,
  projectId: string,
  urls: readonly string[],
  window: { from: number; changedAt: number; to: number },
): Promise<{ crawls: AroundCounts | null; referrals: AroundCounts | null }> {
  if (urls.length === 0) return { crawls: null, referrals: null };
  const paths = new Set(urls.map(pagePath));
  const [start, middle, end] = [dayOf(window.from), dayOf(window.changedAt), dayOf(window.to)];
  const daysBefore = Math.max(0, Math.round((Date.parse(middle) - Date.parse(start)) / DAY_MS));
  const daysAfter = Math.max(0, Math.round((Date.parse(end) - Date.parse(middle)) / DAY_MS));
  const counts = (rows: { day: string; path: string; n: number | string }[]): AroundCounts | null => {
    if (rows.length === 0) return null;
    const sums = { before: 0, after: 0, otherBefore: 0, otherAfter: 0 };
    for (const row of rows) {
      const mine = paths.has(pagePath(row.path));
      const key = row.day < middle ? (mine ? "before" : "otherBefore") : mine ? "after" : "otherAfter";
      sums[key] += Number(row.n);
    }
    const per = (n: number, days: number) => (days === 0 ? 0 : Math.round((n / days) * 100) / 100);
    return {
      before_per_day: per(sums.before, daysBefore),
      after_per_day: per(sums.after, daysAfter),
      other_before_per_day: per(sums.otherBefore, daysBefore),
      other_after_per_day: per(sums.otherAfter, daysAfter),
      days_before: daysBefore,
      days_after: daysAfter,
    };
  };
  const hits = await ctx.db
    .selectFrom("traffic_bot_hits")
    .select(["day", "path"])
    .select((eb) => eb.fn.sum<number>("hits").as("n"))
    .where("workspace_id", "=", ctx.workspace.id)
    .where("project_id", "=", projectId)
    .where("day", ">=", start)
    .where("day", "<", end)
    .groupBy(["day", "path"])
    .execute();
  const visits = await ctx.db
    .selectFrom("traffic_referrals")
    .select(["day", "path"])
    .select((eb) => eb.fn.sum<number>("visits").as("n"))
    .where("workspace_id", "=", ctx.workspace.id)
    .where("project_id", "=", projectId)
    .where("day", ">=", start)
    .where("day", "<", end)
    .groupBy(["day", "path"])
    .execute();
  return { crawls: counts(hits), referrals: counts(visits) };
}
