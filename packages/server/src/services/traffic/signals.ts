import type { ServiceContext } from "../context.ts";
import { crawlerFindings } from "./access-findings.ts";

/**
 * What the traffic alert rules read after a monitoring run (issue 26): AI bots' crawls and
 * AI-referred visits over the last seven full UTC days against the seven before, and the AI bots
 * robots.txt blocks from a brand domain that feed an engine the brand's schedule asks.
 */
export interface TrafficSignals {
  crawls: { current: number; previous: number };
  referrals: { current: number; previous: number };
  /** "OAI-SearchBot on acme.com (robots.txt line 7)", one per bot and domain. */
  blocked: string[];
}

export const SIGNAL_DAYS = 7;
const DAY_MS = 86_400_000;

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export async function trafficSignals(
  ctx: ServiceContext,
  projectId: string,
  engines: readonly string[],
): Promise<TrafficSignals> {
  const today = Math.floor(ctx.clock.now().getTime() / DAY_MS) * DAY_MS;
  const start = dayOf(today - 2 * SIGNAL_DAYS * DAY_MS);
  const middle = dayOf(today - SIGNAL_DAYS * DAY_MS);
  const end = dayOf(today);
  const sums = async (table: "traffic_bot_hits" | "traffic_referrals", column: "hits" | "visits") => {
    const rows = await ctx.db
      .selectFrom(table)
      .select((eb) => [
        eb.fn.sum<number>(eb.case().when("day", ">=", middle).then(eb.ref(column)).else(0).end()).as("current"),
        eb.fn.sum<number>(eb.case().when("day", "<", middle).then(eb.ref(column)).else(0).end()).as("previous"),
      ])
      .where("workspace_id", "=", ctx.workspace.id)
      .where("project_id", "=", projectId)
      .where("day", ">=", start)
      .where("day", "<", end)
      .executeTakeFirst();
    return { current: Number(rows?.current ?? 0), previous: Number(rows?.previous ?? 0) };
  };
  const { blocks } = await crawlerFindings(ctx, projectId);
  const blocked = blocks
    .filter((block) => block.bot.engines.some((engine) => engines.includes(engine)))
    .map(
      (block) =>
        `${block.bot.name} on ${block.domain}${block.rule === null ? "" : ` (robots.txt line ${block.rule.line})`}`,
    );
  return {
    crawls: await sums("traffic_bot_hits", "hits"),
    referrals: await sums("traffic_referrals", "visits"),
    blocked,
  };
}
