import type { Static } from "typebox";
import type { ServiceContext } from "../context.ts";
import type { RateDecision } from "../rate-limits/rate-limits.ts";
import { costsByPeriod, costView } from "./costs.ts";
import { agencyPoolOf, JUDGE_LEDGER } from "./credits.ts";
import { type BillingPeriod, billingPeriod, previousPeriod } from "./period.ts";
import type { UsageSchema } from "./schemas.ts";

/** Requests and credits of the current billing period, and the rate-limit window. */
export type UsageView = Static<typeof UsageSchema>;

/**
 * The workspace's usage in the current billing period. Request counts include what this process
 * has not written yet; other processes' last second of requests may be missing.
 */
export async function getUsage(ctx: ServiceContext, rate: RateDecision | null): Promise<UsageView> {
  const period = billingPeriod(ctx.workspace.billingAnchor, ctx.clock.now());
  const where = { workspace_id: ctx.workspace.id, period_start: period.start };

  const requestRows = await ctx.db
    .selectFrom("usage_requests")
    .select(["endpoint", "count"])
    .where("workspace_id", "=", where.workspace_id)
    .where("period_start", "=", where.period_start)
    .execute();
  const byEndpoint = new Map(requestRows.map((row) => [row.endpoint, Number(row.count)]));
  for (const [endpoint, count] of ctx.meter?.pendingFor(where.workspace_id, where.period_start) ?? []) {
    byEndpoint.set(endpoint, (byEndpoint.get(endpoint) ?? 0) + count);
  }

  const creditRow = await ctx.db
    .selectFrom("credit_usage")
    .select("used")
    .where("workspace_id", "=", where.workspace_id)
    .where("period_start", "=", where.period_start)
    .executeTakeFirst();
  const engineRows = await ctx.db
    .selectFrom("credit_entries")
    .select(["engine", (eb) => eb.fn.sum<number>("credits").as("credits")])
    .where("workspace_id", "=", where.workspace_id)
    .where("period_start", "=", where.period_start)
    .groupBy("engine")
    .orderBy("engine")
    .execute();

  const months = lastPeriods(ctx.workspace.billingAnchor, period, 12);
  const costs = await costsByPeriod(
    ctx.db,
    ctx.workspace.id,
    months.map((month) => month.start),
  );
  const costOf = (start: string) => costView(costs.get(start) ?? new Map());

  const used = Number(creditRow?.used ?? 0);
  // A client of an agency: its cap, and no more than what is left of the agency's pool.
  const pool = await agencyPoolOf(ctx);
  let allowance = ctx.workspace.plan.creditsPerMonth;
  let remaining = Math.max(0, allowance - used);
  if (pool !== null) {
    const pooled = await ctx.db
      .selectFrom("agency_credit_usage")
      .select("used")
      .where("agency_id", "=", pool.agencyId)
      .where("period_start", "=", billingPeriod(pool.billingAnchor, ctx.clock.now()).start)
      .executeTakeFirst();
    const poolLeft = Math.max(0, pool.allowance - Number(pooled?.used ?? 0));
    allowance = pool.cap ?? pool.allowance;
    remaining = Math.min(Math.max(0, allowance - used), poolLeft);
  }
  const sorted = [...byEndpoint].sort(([a], [b]) => a.localeCompare(b));
  return {
    object: "usage",
    workspace_id: ctx.workspace.id,
    plan: ctx.workspace.plan.name,
    period,
    requests: { total: sorted.reduce((sum, [, n]) => sum + n, 0), by_endpoint: Object.fromEntries(sorted) },
    credits: {
      allowance,
      used,
      remaining,
      by_engine: Object.fromEntries(
        engineRows
          .filter((row) => row.engine !== JUDGE_LEDGER && Number(row.credits) !== 0)
          .map((row) => [row.engine, Number(row.credits)]),
      ),
      judge: Number(engineRows.find((row) => row.engine === JUDGE_LEDGER)?.credits ?? 0),
    },
    cost: {
      period: costOf(period.start),
      months: months.map((month) => ({ start: month.start, end: month.end, cost: costOf(month.start) })),
    },
    // Without a request of the API's own (the dashboard, the CLI), the plan's limit with no window.
    rate_limit: {
      enabled: ctx.rateLimits !== null && ctx.workspace.plan.requestsPerMinute !== null,
      limit: rate?.limit ?? (ctx.rateLimits === null ? null : ctx.workspace.plan.requestsPerMinute),
      remaining: rate?.remaining ?? null,
      reset: rate?.resetAt ?? null,
      window_seconds: ctx.rateLimits === null ? null : ctx.rateLimits.windowSeconds,
    },
  };
}

/** The `count` billing periods ending with `current`, newest first. */
function lastPeriods(anchor: string, current: BillingPeriod, count: number): BillingPeriod[] {
  const out = [current];
  while (out.length < count) {
    const newest = out[out.length - 1] as BillingPeriod;
    out.push(previousPeriod(anchor, newest));
  }
  return out;
}
