import { sql } from "kysely";
import type { Static } from "typebox";
import { validationError } from "../../errors/api-error.ts";
import type { ServiceContext } from "../context.ts";
import { getProject } from "../projects/projects.ts";
import { BOTS } from "./bots.ts";
import type { Verification } from "./ranges.ts";
import { largerSource, visitsBySource } from "./referral-sources.ts";
import type { TrafficSchema } from "./schemas.ts";

/**
 * A brand's AI traffic over a period (issue 26): hits per bot and verification, referred visits
 * per engine, and both per day. Read from the daily counts imports and GA4 syncs wrote; filters by engine (the
 * referrals it sent, and the hits of the bots that feed it), bot and verification.
 */
export interface TrafficQuery {
  from?: string;
  to?: string;
  engine?: string;
  bot?: string;
  verified?: boolean;
}

export type TrafficSummary = Static<typeof TrafficSchema>;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function day(value: string | undefined, field: string): string | null {
  if (value === undefined) return null;
  const text = value.slice(0, 10);
  if (!DAY.test(text) || Number.isNaN(Date.parse(text))) {
    throw validationError([{ field, issue: "must be an ISO 8601 date (YYYY-MM-DD)" }]);
  }
  return text;
}

export async function trafficSummary(
  ctx: ServiceContext,
  projectId: string,
  query: TrafficQuery,
): Promise<TrafficSummary> {
  await getProject(ctx, projectId);
  const from = day(query.from, "from");
  const to = day(query.to, "to");
  const botsOfEngine =
    query.engine === undefined
      ? null
      : BOTS.filter((b) => (b.engines as readonly string[]).includes(query.engine ?? "")).map((b) => b.name);

  let hits = ctx.db
    .selectFrom("traffic_bot_hits")
    .where("workspace_id", "=", ctx.workspace.id)
    .where("project_id", "=", projectId);
  if (from !== null) hits = hits.where("day", ">=", from);
  if (to !== null) hits = hits.where("day", "<", to);
  if (query.bot !== undefined) hits = hits.where("bot", "=", query.bot);
  if (query.verified !== undefined) hits = hits.where("verification", query.verified ? "=" : "!=", "verified");
  if (botsOfEngine !== null)
    hits = botsOfEngine.length === 0 ? hits.where(sql<boolean>`1 = 0`) : hits.where("bot", "in", botsOfEngine);

  let visits = ctx.db
    .selectFrom("traffic_referrals")
    .where("workspace_id", "=", ctx.workspace.id)
    .where("project_id", "=", projectId);
  if (from !== null) visits = visits.where("day", ">=", from);
  if (to !== null) visits = visits.where("day", "<", to);
  if (query.engine !== undefined) visits = visits.where("engine", "=", query.engine);
  // Filtering by bot or verification is about bots: no referral matches it.
  const noVisits = query.bot !== undefined || query.verified !== undefined;

  const byBot = await hits
    .select(["bot", "verification"])
    .select((eb) => [eb.fn.sum<number>("hits").as("hits"), eb.fn.max("last_at").as("last_at")])
    .groupBy(["bot", "verification"])
    .execute();
  // Logs and GA4 may count the same visits: per day, page and engine, the larger count (referral-sources.ts).
  const bySource = ctx.db.selectFrom(visitsBySource(visits).as("v"));
  const byEngine = noVisits
    ? []
    : await bySource
        .select("v.engine as engine")
        .select((eb) => eb.fn.sum<number>(largerSource).as("visits"))
        .groupBy("v.engine")
        .execute();
  const hitDays = await hits
    .select("day")
    .select((eb) => eb.fn.sum<number>("hits").as("hits"))
    .groupBy("day")
    .execute();
  const visitDays = noVisits
    ? []
    : await bySource
        .select("v.day as day")
        .select((eb) => eb.fn.sum<number>(largerSource).as("visits"))
        .groupBy("v.day")
        .execute();
  const sources = noVisits
    ? undefined
    : await bySource
        .select((eb) => [eb.fn.sum<number>("v.logs").as("logs"), eb.fn.sum<number>("v.ga4").as("ga4")])
        .executeTakeFirst();

  const operators = new Map(BOTS.map((b) => [b.name, b.operator]));
  const bots = byBot
    .map((row) => ({
      bot: row.bot,
      operator: operators.get(row.bot) ?? "",
      verification: row.verification as Verification,
      hits: Number(row.hits),
      last_at: String(row.last_at),
    }))
    .sort((a, b) => b.hits - a.hits || a.bot.localeCompare(b.bot) || a.verification.localeCompare(b.verification));
  const engines = byEngine
    .map((row) => ({ engine: row.engine, visits: Number(row.visits) }))
    .sort((a, b) => b.visits - a.visits || a.engine.localeCompare(b.engine));
  const days = new Map<string, { day: string; bot_hits: number; referrals: number }>();
  const dayRow = (d: string) => {
    let row = days.get(d);
    if (row === undefined) {
      row = { day: d, bot_hits: 0, referrals: 0 };
      days.set(d, row);
    }
    return row;
  };
  for (const row of hitDays) dayRow(row.day).bot_hits += Number(row.hits);
  for (const row of visitDays) dayRow(row.day).referrals += Number(row.visits);
  const sum = (verification: Verification) =>
    bots.filter((b) => b.verification === verification).reduce((acc, b) => acc + b.hits, 0);
  return {
    object: "traffic",
    project_id: projectId,
    from,
    to,
    totals: {
      bot_hits: bots.reduce((acc, b) => acc + b.hits, 0),
      verified: sum("verified"),
      spoofed: sum("spoofed"),
      unverifiable: sum("unverifiable"),
      referrals: engines.reduce((acc, e) => acc + e.visits, 0),
    },
    referrals_by_source: { logs: Number(sources?.logs ?? 0), ga4: Number(sources?.ga4 ?? 0) },
    bots,
    engines,
    days: [...days.values()].sort((a, b) => a.day.localeCompare(b.day)),
  };
}
