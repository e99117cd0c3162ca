import type { ServiceContext } from "../context.ts";
import type { RateDecision } from "../rate-limits/rate-limits.ts";
import { billingPeriod } from "./period.ts";

export interface UsageView {
  object: "usage";
  workspace_id: string;
  plan: string;
  period: { start: string; end: string };
  requests: { total: number; by_endpoint: Record<string, number> };
  credits: {
    allowance: number;
    used: number;
    remaining: number;
    by_engine: Record<string, number>;
  };
  rate_limit: {
    enabled: boolean;
    limit: number | null;
    remaining: number | null;
    reset: number | null;
    window_seconds: number | null;
  };
}

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

  const allowance = ctx.workspace.plan.creditsPerMonth;
  const used = Number(creditRow?.used ?? 0);
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
      remaining: Math.max(0, allowance - used),
      by_engine: Object.fromEntries(
        engineRows.filter((row) => Number(row.credits) !== 0).map((row) => [row.engine, Number(row.credits)]),
      ),
    },
    rate_limit: {
      enabled: rate !== null,
      limit: rate?.limit ?? null,
      remaining: rate?.remaining ?? null,
      reset: rate?.resetAt ?? null,
      window_seconds: rate === null ? null : (ctx.rateLimits?.windowSeconds ?? null),
    },
  };
}
